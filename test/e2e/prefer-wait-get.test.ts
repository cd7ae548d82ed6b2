import { AssayHarness } from '../support/assay-harness';
import { eventually } from '../support/eventually';
import { TINY_GRAPH } from '../support/graphs';
import { HeldProvider } from '../support/held-provider';
import { bearer, http } from '../support/http';
import { approveAssessment } from '../support/review-assessment';

// Prefer: wait on GET through the public API: the answer is held until the resource changes state
// (woken by Temporal, not by a timer), and held waits are bounded per organisation, beyond which
// the API answers at once without Preference-Applied (RFC 7240: a preference may be ignored).

const WAITS_PER_ORGANISATION = 2;
const provider = new HeldProvider();
let harness: AssayHarness;
let acme: string;
let globex: string;

beforeAll(async () => {
  harness = await AssayHarness.start({ provider, worker: 'later', env: { PREFER_WAIT_MAX_PER_ORGANISATION: String(WAITS_PER_ORGANISATION) } });
  acme = (await harness.issueKey('acme', 'test')).key;
  globex = (await harness.issueKey('globex', 'test')).key;
});

afterAll(async () => {
  provider.release();
  await harness?.stop();
});

const url = (path: string) => `${harness.baseUrl}${path}`;

async function createTask(key: string, text = 'A text to summarise. It has two sentences.'): Promise<string> {
  const created = await http(url('/v1/ai/tasks'), { method: 'POST', headers: bearer(key), json: { task_type: 'summarize', input: { text } } });
  expect(created.status).toBe(202);
  return created.body.id as string;
}

const getTask = (key: string, id: string, prefer?: string) => http(url(`/v1/ai/tasks/${id}`), { headers: { ...bearer(key), ...(prefer ? { prefer } : {}) } });

/** Running and waiting on the held provider: its progress (0 of 1 steps) is published, so nothing changes until the provider answers. */
async function heldAtProvider(key: string, id: string): Promise<void> {
  await eventually(() => getTask(key, id), (answer) => answer.body.status === 'running' && answer.body.progress !== undefined, 'the task to wait on the provider');
}

/** Resolves once `promise` settles, or with 'pending' if it has not within `ms`: shows a request is being held. */
function stateAfter<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);
}

describe('GET /v1/ai/tasks/{id} with Prefer: wait', () => {
  it('holds a queued task until a worker takes it, then answers it running', async () => {
    const id = await createTask(acme);
    const held = getTask(acme, id, 'wait=45');
    expect(await stateAfter(held, 1_500)).toBe('pending');
    const arrived = provider.nextRequest();
    await harness.startWorker();
    const answer = await held;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('preference-applied')).toBe('wait=45');
    expect(answer.body).toMatchObject({ id, status: 'running' });
    await arrived;
  });

  it('holds a running task until it is final, and answers the final task', async () => {
    const id = await createTask(acme, 'Another text for the held provider. It waits.');
    await heldAtProvider(acme, id);
    const held = getTask(acme, id, 'wait=45');
    expect(await stateAfter(held, 1_500)).toBe('pending');
    provider.release();
    const answer = await held;
    expect(answer.headers.get('preference-applied')).toBe('wait=45');
    expect(answer.body).toMatchObject({ id, status: 'succeeded', output: { summary: 'The provider summary.' } });
    provider.hold();
  });

  it('answers the task unchanged when the wait runs out, and a final task at once', async () => {
    const id = await createTask(acme, 'A third text. The provider holds it.');
    await heldAtProvider(acme, id);
    const timedOut = await getTask(acme, id, 'wait=1');
    expect(timedOut.status).toBe(200);
    expect(timedOut.headers.get('preference-applied')).toBe('wait=1');
    expect(timedOut.body).toMatchObject({ id, status: 'running' });

    provider.release();
    const final = await eventually(() => getTask(acme, id), (answer) => answer.body.status === 'succeeded', 'the task to succeed');
    const again = await getTask(acme, id, 'wait=45');
    expect(again.headers.get('preference-applied')).toBe('wait=45');
    expect(again.body).toEqual(final.body);
    provider.hold();
  });

  it("holds at most the organisation's share of waits: beyond it the GET and the create answer at once, without Preference-Applied", async () => {
    const id = await createTask(acme, 'A fourth text. Held while the waits pile up.');
    await heldAtProvider(acme, id);
    const held = Array.from({ length: WAITS_PER_ORGANISATION }, () => getTask(acme, id, 'wait=45'));
    expect(await stateAfter(Promise.race(held), 1_500)).toBe('pending');

    const beyond = await getTask(acme, id, 'wait=45');
    expect(beyond.status).toBe(200);
    expect(beyond.headers.get('preference-applied')).toBeNull();
    expect(beyond.body).toMatchObject({ id, status: 'running' });
    const create = await http(url('/v1/ai/tasks'), {
      method: 'POST',
      headers: { ...bearer(acme), prefer: 'wait=45' },
      json: { task_type: 'summarize', input: { text: 'A fifth text. Its create is not held.' } },
    });
    expect(create.status).toBe(202);
    expect(create.headers.get('preference-applied')).toBeNull();

    const otherTask = await createTask(globex);
    await heldAtProvider(globex, otherTask);
    const otherOrganisation = getTask(globex, otherTask, 'wait=45');
    expect(await stateAfter(otherOrganisation, 1_500)).toBe('pending');

    provider.release();
    for (const answer of [...(await Promise.all(held)), await otherOrganisation]) {
      expect(answer.headers.get('preference-applied')).toBe('wait=45');
      expect(answer.body.status).toBe('succeeded');
    }
    const afterwards = getTask(acme, create.body.id, 'wait=45');
    expect((await afterwards).headers.get('preference-applied')).toBe('wait=45');
    provider.hold();
  });
});

describe('GET /v1/network-assessments/{id} with Prefer: wait', () => {
  it('holds a checked assessment until a reviewer claims it, then answers it under review', async () => {
    const created = await http(url('/v1/network-assessments'), { method: 'POST', headers: bearer(acme), json: { name: 'Held GET', context: 'A GET held until the review moves.', ...TINY_GRAPH } });
    expect(created.status).toBe(202);
    const id = created.body.assessment_id as string;
    const getAssessment = (prefer?: string) => http(url(`/v1/network-assessments/${id}`), { headers: { ...bearer(acme), ...(prefer ? { prefer } : {}) } });
    // Checked, and every step after the checks recorded: two reads a second apart agree.
    let previous = '';
    const checked = await eventually(
      () => getAssessment(),
      (answer) => {
        const seen = JSON.stringify(answer.body);
        const steady = answer.body.findings !== undefined && seen === previous;
        previous = seen;
        return steady;
      },
      'the checks to run and the assessment to settle',
      20_000,
      1_000,
    );
    expect(checked.body.status).toBe('submitted');

    const held = getAssessment('wait=45');
    expect(await stateAfter(held, 1_500)).toBe('pending');
    const approving = approveAssessment(harness.temporal.address, 'acme', id);
    const answer = await held;
    expect(answer.headers.get('preference-applied')).toBe('wait=45');
    expect(['under_review', 'completed']).toContain(answer.body.status);
    await approving;
  });
});

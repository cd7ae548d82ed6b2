import { AssayHarness } from '../support/assay-harness';
import { HeldProvider } from '../support/held-provider';
import { bearer, http } from '../support/http';

const provider = new HeldProvider();
let harness: AssayHarness;
let key: string;
let tasksUrl: string;

beforeAll(async () => {
  harness = await AssayHarness.start({ provider });
  key = (await harness.issueKey('acme', 'test')).key;
  tasksUrl = `${harness.baseUrl}/v1/ai/tasks`;
});

afterAll(async () => {
  await harness?.stop();
});

function createTask(headers: Record<string, string> = {}) {
  return http(tasksUrl, { method: 'POST', headers: { ...bearer(key), ...headers }, json: { task_type: 'summarize', input: { text: 'Text to work on. It has two sentences.' } } });
}

async function pollUntilFinal(id: string): Promise<any> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { body } = await http(`${tasksUrl}/${id}`, { headers: bearer(key) });
    if (body.status === 'succeeded' || body.status === 'failed') return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`task ${id} never became final`);
}

describe('POST /v1/ai/tasks/{task_id}/cancel', () => {
  it('ends a running task as failed with CANCELED, and repeating the cancel is harmless', async () => {
    const arrived = provider.nextRequest();
    const created = await createTask();
    await arrived;
    const cancel = await http(`${tasksUrl}/${created.body.id}/cancel`, { method: 'POST', headers: bearer(key) });
    expect(cancel.status).toBe(202);
    expect(cancel.body.id).toBe(created.body.id);
    const final = await pollUntilFinal(created.body.id);
    expect(final).toMatchObject({ status: 'failed', error: { code: 'CANCELED' } });
    const again = await http(`${tasksUrl}/${created.body.id}/cancel`, { method: 'POST', headers: bearer(key) });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ status: 'failed', error: { code: 'CANCELED' } });
  });

  it('answers 409 TASK_ALREADY_FINAL for a task that already succeeded', async () => {
    provider.release();
    const created = await createTask();
    await pollUntilFinal(created.body.id);
    const cancel = await http(`${tasksUrl}/${created.body.id}/cancel`, { method: 'POST', headers: bearer(key) });
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.code).toBe('TASK_ALREADY_FINAL');
  });

  it("answers 404 for an unknown or another organisation's task", async () => {
    const other = await harness.issueKey('globex', 'test');
    const created = await createTask();
    const response = await http(`${tasksUrl}/${created.body.id}/cancel`, { method: 'POST', headers: bearer(other.key) });
    expect(response.status).toBe(404);
  });
});

describe('Prefer: wait on POST /v1/ai/tasks', () => {
  it('answers 200 with the final task when it finishes within the wait', async () => {
    provider.release();
    const response = await createTask({ prefer: 'wait=10' });
    expect(response.status).toBe(200);
    expect(response.headers.get('preference-applied')).toBe('wait=10');
    expect(response.body).toMatchObject({ status: 'succeeded', output: { summary: 'The provider summary.' } });
    expect(response.headers.get('location')).toBe(`/v1/ai/tasks/${response.body.id}`);
  });
});

describe('Prefer: wait on a task that outlasts it', () => {
  beforeAll(() => provider.hold());

  it('answers 202 with the task as it is once the wait runs out', async () => {
    const response = await createTask({ prefer: 'wait=1' });
    expect(response.status).toBe(202);
    expect(response.headers.get('preference-applied')).toBe('wait=1');
    expect(['queued', 'running']).toContain(response.body.status);
  });
});

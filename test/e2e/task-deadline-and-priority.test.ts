import type { Task, TaskUsage } from '../../src/sdk';
import { AssayHarness } from '../support/assay-harness';
import { eventually } from '../support/eventually';
import { HeldProvider } from '../support/held-provider';
import { bearer, http } from '../support/http';
import { ScriptedProvider } from '../support/scripted-provider';
import { taskWhenFinal } from '../support/tasks';

// Deadlines (a body field or Cancel-After) and priority within an organisation, through the
// public API, on a remote model whose calls the stand-in providers count, hold and order.

type ReadTask = Task & { usage?: TaskUsage; deadline?: string; priority?: string };

const held = new HeldProvider();
const ordered = new ScriptedProvider();
let harness: AssayHarness;
let key: string;

beforeAll(async () => {
  const [heldUrl, orderedUrl] = [await held.listen(), await ordered.listen()];
  harness = await AssayHarness.start({
    worker: 'later',
    env: {
      ASSAY_MODELS: JSON.stringify([
        { name: 'held', base_url: heldUrl, concurrency: 4 },
        // One call at a time: the order the provider receives them in is the order they were dispatched.
        { name: 'ordered', base_url: orderedUrl, concurrency: 1 },
      ]),
      // The fewest slots the SDK allows, so the worker takes workflow tasks about one at a time.
      WORKER_SLOTS_SANDBOX: '2',
    },
  });
  key = (await harness.issueKey('acme', 'test')).key;
});

afterAll(async () => {
  await harness?.stop();
  await held.close();
  await ordered.close();
});

afterEach(async () => {
  held.release();
  await harness.stopWorker();
});

async function create(body: object, headers: Record<string, string> = {}) {
  return http<ReadTask>(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: { ...bearer(key), ...headers }, json: { task_type: 'summarize', ...body } });
}

const untilFinal = (id: string) => taskWhenFinal<ReadTask>(harness.baseUrl, key, id);

describe('a task with a deadline', () => {
  it('fails TIMED_OUT without calling its model when the deadline passes before any worker takes it', async () => {
    held.hold();
    const created = await create({ model: 'held', input: { text: 'A text whose deadline passes in the queue.' } }, { 'cancel-after': '1s' });
    expect(created.status).toBe(202);
    expect(Date.parse(created.body.deadline as string) - Date.parse(created.body.created_at)).toBeGreaterThanOrEqual(999);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const before = held.requests;
    await harness.startWorker();
    const task = await untilFinal(created.body.id);
    expect(task).toMatchObject({ status: 'failed', error: { code: 'TIMED_OUT', message: `The task did not finish by its deadline, ${created.body.deadline}` } });
    expect(held.requests).toBe(before);
    expect(task.usage).toBeUndefined();
  });

  it('fails TIMED_OUT when the deadline passes while its model call runs, and the call is canceled', async () => {
    held.hold();
    await harness.startWorker();
    const arrived = held.nextRequest();
    // Time enough for the call to reach the held model on a loaded machine, which the test waits for.
    const deadline = new Date(Date.now() + 10_000).toISOString();
    const created = await create({ model: 'held', deadline, input: { text: 'A text whose deadline passes mid-call.' } });
    expect(created.body.deadline).toBe(deadline);
    await arrived;
    const task = await untilFinal(created.body.id);
    expect(task).toMatchObject({ status: 'failed', deadline, error: { code: 'TIMED_OUT' } });
    expect(Date.parse(task.updated_at)).toBeGreaterThanOrEqual(Date.parse(deadline));
    // The call never returned: nothing was used.
    expect(task.usage).toBeUndefined();
  });

  it('succeeds as usual when it finishes before its deadline', async () => {
    held.release();
    await harness.startWorker();
    const created = await create({ model: 'held', input: { text: 'A text with time to spare.' } }, { 'cancel-after': '5m' });
    expect(await untilFinal(created.body.id)).toMatchObject({ status: 'succeeded', deadline: created.body.deadline });
  });

  it('takes the earlier of a deadline in the body and Cancel-After', async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    const created = await create({ deadline: soon, input: { text: 'A text with two deadlines.' } }, { 'cancel-after': '1h' });
    expect(created.body.deadline).toBe(soon);
  });

  it.each([
    [{}, { 'cancel-after': 'soon' }, 'Cancel-After: must be a duration, such as "90s", "5m" or "2h"'],
    [{ deadline: 'tomorrow' }, {}, 'deadline: must be an RFC 3339 date-time'],
  ])('refuses %j with %j: 400', async (body, headers, message) => {
    const refused = await create({ ...body, input: { text: 'Some text.' } }, headers);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { code: 'INVALID_REQUEST', message } });
  });
});

describe('priority within an organisation', () => {
  it("dispatches the organisation's high task before its earlier low ones", async () => {
    ordered.answer();
    const backlog = 12;
    for (let index = 0; index < backlog; index++) {
      expect((await create({ model: 'ordered', priority: 'low', input: { text: `Bulk item ${index}.` } })).status).toBe(202);
    }
    const urgent = await create({ model: 'ordered', priority: 'high', input: { text: 'The urgent one.' } });
    expect(urgent.body.priority).toBe('high');
    await harness.startWorker();
    await eventually(async () => ordered.bodies.length, (received) => received >= backlog + 1, 'every call to reach the provider', 60_000);
    const position = ordered.bodies.findIndex((body) => body.includes('The urgent one.'));
    // In arrival order it would be last; in a lane of its own it overtakes the bulk.
    expect(position).toBeLessThan(3);
  });

  it('refuses an unknown priority with 400', async () => {
    const refused = await create({ priority: 'urgent', input: { text: 'Some text.' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { code: 'INVALID_REQUEST', message: 'priority: must be one of high, normal, low' } });
  });
});

import type { Batch, Task } from '../../src/sdk';
import { AssayHarness } from '../support/assay-harness';
import { eventually } from '../support/eventually';
import { HeldProvider } from '../support/held-provider';
import { bearer, http } from '../support/http';
import { taskWhenFinal } from '../support/tasks';

// Priority orders an organisation's own work only. Beside one organisation's backlog of `high`
// tasks another organisation's `normal` task keeps its turn, on the workflows' task queue and on a
// model's queue; and an organisation's `high` task still overtakes its own batch.

type ReadTask = Task & { progress?: { completed_steps: number; total_steps: number } };

const BACKLOG = 12;
const held = new HeldProvider();
let harness: AssayHarness;

beforeAll(async () => {
  harness = await AssayHarness.start({
    worker: 'later',
    env: {
      // One call at a time: the order the provider receives them in is the order the model's queue dispatched them in.
      ASSAY_MODELS: JSON.stringify([{ name: 'held', base_url: await held.listen(), concurrency: 1 }]),
      // The fewest slots the SDK allows: the worker takes workflow tasks nearly one at a time, in dispatch order.
      WORKER_SLOTS_SANDBOX: '2',
    },
  });
});

afterAll(async () => {
  held.release();
  await harness?.stop();
  await held.close();
});

afterEach(async () => {
  held.release();
  await harness.stopWorker();
});

async function create(key: string, body: object): Promise<ReadTask> {
  const created = await http<ReadTask>(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: { task_type: 'summarize', ...body } });
  if (created.status !== 202) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
  return created.body;
}

/** Waits until the task's first workflow task has run: a model task has then published its steps and scheduled its first call. */
function calling(key: string, id: string): Promise<ReadTask> {
  return eventually(
    async () => (await http<ReadTask>(`${harness.baseUrl}/v1/ai/tasks/${id}`, { headers: bearer(key) })).body,
    (task) => task.progress !== undefined,
    `task ${id} to call its model`,
  );
}

// The provider's calls before the current test began: each test counts positions among its own.
let earlierCalls = 0;

/** Where among the current test's model calls the first one whose text holds `marker` came. */
const callPosition = (marker: string) => held.bodies.slice(earlierCalls).findIndex((body) => body.includes(marker));

beforeEach(() => {
  earlierCalls = held.bodies.length;
});

describe('priority across organisations', () => {
  it("keeps another organisation's normal task in its turn on the task queue, beside a backlog of high ones", async () => {
    const loud = (await harness.issueKey('loud-queue', 'test')).key;
    const quiet = (await harness.issueKey('quiet-queue', 'test')).key;
    const backlog = [];
    for (let index = 0; index < BACKLOG; index++) backlog.push(await create(loud, { priority: 'high', input: { text: `Urgent item ${index} of the loud organisation.` } }));
    const neighbour = await create(quiet, { input: { text: 'The one task of the quiet organisation.' } });
    await harness.startWorker();
    // The built-in model summarises inside the task's first workflow task, so the order the tasks
    // closed in is the order the task queue dispatched them in.
    const closedAt = async (key: string, id: string) => Date.parse((await taskWhenFinal(harness.baseUrl, key, id)).updated_at);
    const neighbourClosed = await closedAt(quiet, neighbour.id);
    const closedBefore = (await Promise.all(backlog.map((task) => closedAt(loud, task.id)))).filter((closed) => closed < neighbourClosed);
    // With two slots the worker takes tasks two at a time: the neighbour's is in the first pair or
    // the one after; were `high` to outrank another organisation's `normal`, it would close last.
    expect(closedBefore.length).toBeLessThan(4);
  });

  it("keeps another organisation's normal call in its turn on a model's queue, beside a backlog of high ones", async () => {
    held.hold();
    await harness.startWorker();
    const loud = (await harness.issueKey('loud-model', 'test')).key;
    const quiet = (await harness.issueKey('quiet-model', 'test')).key;
    const backlog = [];
    for (let index = 0; index < BACKLOG; index++) backlog.push(await create(loud, { model: 'held', priority: 'high', input: { text: `Urgent call ${index} of the loud organisation.` } }));
    // The first call holds the model's one slot; the others wait on its queue.
    for (const task of backlog) await calling(loud, task.id);
    const neighbour = await create(quiet, { model: 'held', input: { text: 'The one call of the quiet organisation.' } });
    await calling(quiet, neighbour.id);
    held.release();
    await taskWhenFinal(harness.baseUrl, quiet, neighbour.id);
    // Right after the call that held the slot; were `high` to outrank it, it would come last.
    expect(callPosition('The one call of the quiet organisation.')).toBeLessThan(3);
  });
});

describe('priority within an organisation', () => {
  it('dispatches its high and normal tasks ahead of the backlog of its own batch on a model’s queue', async () => {
    held.hold();
    await harness.startWorker();
    const key = (await harness.issueKey('bulk-and-urgent', 'test')).key;
    const items = Array.from({ length: BACKLOG }, (_, index) => ({ key: `item-${index}`, input: { text: `Bulk item ${index} of the batch.` } }));
    const batch = await http<Batch>(`${harness.baseUrl}/v1/ai/batches`, { method: 'POST', headers: bearer(key), json: { task_type: 'summarize', model: 'held', items } });
    expect(batch.status).toBe(202);
    // Every item has become a task and called the model: the first call holds its slot, the rest wait on the queue.
    const tasks = await eventually(
      async () => (await http<{ data: ReadTask[] }>(`${harness.baseUrl}/v1/ai/batches/${batch.body.id}/tasks?limit=100`, { headers: bearer(key) })).body.data,
      (listed) => listed.length === BACKLOG && listed.every((task) => task.progress !== undefined),
      "the batch's items to call the model",
    );
    expect(tasks).toHaveLength(BACKLOG);
    const urgent = await create(key, { model: 'held', priority: 'high', input: { text: 'The urgent one.' } });
    const single = await create(key, { model: 'held', input: { text: 'The ordinary one.' } });
    await calling(key, urgent.id);
    await calling(key, single.id);
    held.release();
    await taskWhenFinal(harness.baseUrl, key, single.id);
    // The batch's items are `low`, in a lane of their own: after the call that held the slot, each
    // of the organisation's three lanes takes its turn, so its high and normal tasks are among the
    // next three calls; queued behind its own batch, they would come after all eleven.
    expect(callPosition('The urgent one.')).toBeLessThan(4);
    expect(callPosition('The ordinary one.')).toBeLessThan(4);
  });
});

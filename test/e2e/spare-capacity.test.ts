import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { batchWorkflowId } from '../../src/contract';
import { AssayHarness } from '../support/assay-harness';
import { eventually } from '../support/eventually';
import { bearer, http } from '../support/http';

// Small limits, so what is lent stands out: 5 creates at once, then one a second, per key and per organisation.
const BURST = 5;
const LIMITS = {
  RATE_LIMIT_CREATES_BURST: String(BURST),
  RATE_LIMIT_CREATES_PER_MINUTE: '60',
  RATE_LIMIT_ORGANISATION_CREATES_BURST: String(BURST),
  RATE_LIMIT_ORGANISATION_CREATES_PER_MINUTE: '60',
};
const BATCH_ITEMS = 60;

let harness: AssayHarness;
let solo: string;
let neighbour: string;
let late: string;
let both: string;
let many: string;

beforeAll(async () => {
  harness = await AssayHarness.start({ env: LIMITS });
  solo = (await harness.issueKey('solo', 'test')).key;
  neighbour = (await harness.issueKey('neighbour', 'test')).key;
  late = (await harness.issueKey('late', 'test')).key;
  both = (await harness.issueKey('both', 'test')).key;
  many = (await harness.issueKey('many', 'test')).key;
});

afterAll(async () => {
  await harness?.stop();
});

const createTask = (key: string, text: string) => http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: { task_type: 'summarize', input: { text } } });

function createBatch(key: string, prefix: string) {
  const items = Array.from({ length: BATCH_ITEMS }, (_, index) => ({ key: `${prefix}-${index}`, input: { text: `Item ${index} reports the council's decision. The plan adds a bus line.` } }));
  return http(`${harness.baseUrl}/v1/ai/batches`, { method: 'POST', headers: bearer(key), json: { task_type: 'summarize', items } });
}

const getBatch = (key: string, id: string) => http(`${harness.baseUrl}/v1/ai/batches/${id}`, { headers: bearer(key) });

/** How many admissions the batch's workflow has scheduled: paced, one a second at most, each of the organisation's tokens. */
async function admissionsOf(organizationId: string, batchId: string): Promise<number> {
  const connection = await Connection.connect({ address: harness.temporal.address });
  try {
    const handle = new Client({ connection, namespace: harness.config.values.TEMPORAL_NAMESPACE_SANDBOX }).workflow.getHandle(batchWorkflowId(organizationId, batchId));
    const { events } = await handle.fetchHistory();
    return (events ?? []).filter((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'admitBatchItems').length;
  } finally {
    await connection.close();
  }
}

/** The neighbour starts a task and waits until visibility shows it: from then on, for 5 s, nobody is alone. */
async function neighbourWorks(): Promise<void> {
  const created = await createTask(neighbour, 'The neighbour is at work.');
  expect(created.status).toBe(202);
  await eventually(() => http(`${harness.baseUrl}/v1/ai/tasks?limit=100`, { headers: bearer(neighbour) }), (list) => list.body.data.some((task: { id: string }) => task.id === created.body.id), 'the neighbour\'s task in the list');
  // The API's last look at who works serves 250 ms: past it, the next look sees the neighbour.
  await sleep(300);
}

describe('capacity nobody else uses is lent to an organisation alone', () => {
  it("admits a lone organisation's batch past its pace, and drains it", async () => {
    const created = await createBatch(solo, 'alone');
    expect(created.status).toBe(202);
    const ended = await eventually(() => getBatch(solo, created.body.id), (batch) => batch.body.status === 'ended', 'the batch to end', 120_000, 500);
    expect(ended.body.counts).toEqual({ total: BATCH_ITEMS, admitted: BATCH_ITEMS, succeeded: BATCH_ITEMS, failed: 0 });
    // Paced, 60 items take 56 admissions (5 at once, then one a second); lent the idle stack, the first admits them all.
    expect(await admissionsOf('solo', created.body.id)).toBe(1);
  });

  it("admits a lone organisation's creates past its limits", async () => {
    const answers = await Promise.all(Array.from({ length: 4 * BURST }, (_, index) => createTask(solo, `Create ${index} of an organisation alone.`)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(4 * BURST).fill(202));
  });

  it('keeps each organisation to its limits beside a neighbour, for creates and for a batch', async () => {
    await neighbourWorks();
    const answers = await Promise.all(Array.from({ length: 4 * BURST }, (_, index) => createTask(solo, `Create ${index} beside a neighbour.`)));
    const admitted = answers.filter((answer) => answer.status === 202).length;
    expect(admitted).toBeLessThanOrEqual(BURST + 2);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(4 * BURST - admitted);

    await neighbourWorks();
    const created = await createBatch(late, 'beside');
    expect(created.status).toBe(202);
    await eventually(() => getBatch(late, created.body.id), (batch) => batch.body.counts.admitted > 0, 'the first admission', 30_000, 50);
    // Time for a lent admission to show, had there been one: it would hold the whole batch.
    await sleep(1_500);
    expect((await getBatch(late, created.body.id)).body.counts.admitted).toBeLessThanOrEqual(BURST + 3);
  });

  it("gives an organisation's batch only what its creates leave of its rate", async () => {
    await neighbourWorks();
    const created = await createBatch(both, 'both');
    expect(created.status).toBe(202);
    // The organisation creates faster than its rate, so its creates take the whole of it: one a second once the burst is spent.
    const admitted = await whileNeighbourWorks(() => createTask(both, "A create that takes its organisation's rate."), 250, async () => {
      await eventually(() => getBatch(both, created.body.id), (batch) => batch.body.counts.admitted > 0, 'the first admission', 30_000, 50);
      await sleep(8_000);
      return (await getBatch(both, created.body.id)).body.counts.admitted;
    });
    // The batch's own pace would have admitted its burst and then one a second: 13 by now.
    expect(admitted).toBeLessThanOrEqual(BURST + 3);
  });

  it('gives several batches of one organisation its rate once between them', async () => {
    await neighbourWorks();
    const batches = await Promise.all([1, 2, 3].map((index) => createBatch(many, `many-${index}`)));
    expect(batches.map((created) => created.status)).toEqual([202, 202, 202]);
    const admittedOf = async () => (await Promise.all(batches.map((created) => getBatch(many, created.body.id)))).reduce((sum, batch) => sum + batch.body.counts.admitted, 0);
    // After the first admissions (a burst each), over 16 s: the three at their own paces would
    // admit 3 × 16; sharing one rate about 16, more on a loaded machine, where visibility shows a
    // start later and an admission misses the newest of the others' (20 measured on a quiet machine;
    // 14 in 8 s under the whole suite's load).
    const admittedOver16s = await whileNeighbourWorks(undefined, 0, async () => {
      await eventually(admittedOf, (total) => total > 0, 'the first admission', 30_000, 50);
      await sleep(2_000);
      const before = await admittedOf();
      await sleep(16_000);
      return (await admittedOf()) - before;
    });
    expect(admittedOver16s).toBeLessThanOrEqual(2 * 16);
  });
});

/** Runs `measure` while the neighbour starts a task each second (nobody is alone) and `send`, if any, runs every `everyMs`. */
async function whileNeighbourWorks<T>(send: (() => Promise<unknown>) | undefined, everyMs: number, measure: () => Promise<T>): Promise<T> {
  let running = true;
  const loop = async (step: () => Promise<unknown>, ms: number) => {
    while (running) {
      await step();
      await sleep(ms);
    }
  };
  const loops = [loop(() => createTask(neighbour, 'The neighbour is still at work.'), 1_000), ...(send ? [loop(send, everyMs)] : [])];
  try {
    return await measure();
  } finally {
    running = false;
    await Promise.all(loops);
  }
}

import { Client, Connection } from '@temporalio/client';
import { batchIdForIdempotencyKey } from '../../src/common/ids/batch-ids';
import { batchTaskQueue, taskWorkflowId } from '../../src/contract';
import type { Task } from '../../src/sdk';
import { AssayHarness } from '../support/assay-harness';
import { eventually } from '../support/eventually';
import { HeldProvider } from '../support/held-provider';
import { bearer, http } from '../support/http';
import { usageSince, utcDay } from '../support/usage-since';
import { WebhookApi } from '../support/webhook-api';
import { WebhookReceiver } from '../support/webhook-receiver';

// Batches through the public API on the embedded stack: 10,000 items accepted in one request and
// drained server-side, every item final exactly once; a retried create makes nothing twice; a
// cancel withdraws what was not admitted and cancels what runs; limits answer 413.

const provider = new HeldProvider();
const receiver = new WebhookReceiver();
let harness: AssayHarness;
let key: string;

const FIRST_DAY = utcDay();

beforeAll(async () => {
  const providerUrl = await provider.listen();
  await receiver.listen();
  harness = await AssayHarness.start({
    env: {
      ASSAY_MODELS: JSON.stringify([{ name: 'held', base_url: providerUrl, context_tokens: 4096, concurrency: 4 }]),
      MAX_BATCH_BYTES: String(4 * 1024 * 1024),
      // Admission keeps to the organisation's create limit; lifted here, so 10,000 items drain as fast as the stack runs them.
      RATE_LIMIT_ORGANISATION_CREATES_PER_MINUTE: '600000',
      RATE_LIMIT_ORGANISATION_CREATES_BURST: '1000',
    },
  });
  key = (await harness.issueKey('bulk', 'test')).key;
});

afterAll(async () => {
  provider.release();
  await harness?.stop();
  await receiver.close();
  await provider.close();
});

function items(count: number, prefix: string) {
  return Array.from({ length: count }, (_, index) => ({
    key: `${prefix}-${index}`,
    input: { text: `Item ${index} of the batch reports the council's decision. The plan adds bus line ${index % 97}. Critics called it costly.` },
  }));
}

const createBatch = (body: object, headers: Record<string, string> = {}) =>
  http(`${harness.baseUrl}/v1/ai/batches`, { method: 'POST', headers: { ...bearer(key), ...headers }, json: { task_type: 'summarize', ...body } });

async function describeTask(taskId: string) {
  const connection = await Connection.connect({ address: harness.temporal.address });
  try {
    return await new Client({ connection, namespace: harness.config.values.TEMPORAL_NAMESPACE_SANDBOX }).workflow.getHandle(taskWorkflowId('bulk', taskId)).describe();
  } finally {
    await connection.close();
  }
}

const getBatch = async (id: string) => (await http(`${harness.baseUrl}/v1/ai/batches/${id}`, { headers: bearer(key) })).body;

async function batchTasks(id: string): Promise<Task[]> {
  const tasks: Task[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `?limit=100&cursor=${encodeURIComponent(cursor)}` : '?limit=100';
    // A page the API could not list in time under the suite's load is 503 with Retry-After, asked again as a client would.
    const page = await eventually(() => http(`${harness.baseUrl}/v1/ai/batches/${id}/tasks${query}`, { headers: bearer(key) }), (answer) => answer.status !== 503, `a page of batch ${id}'s tasks`, 60_000, 2_000);
    expect(page.status).toBe(200);
    tasks.push(...(page.body.data as Task[]));
    cursor = page.body.has_more ? page.body.next_cursor : null;
  } while (cursor);
  return tasks;
}

describe('batches', () => {
  it('drains a 10,000-item batch server-side, each item a task final exactly once, announced once, and a retry makes nothing twice', async () => {
    const endpoint = await new WebhookApi(harness).register(key, { url: receiver.url(), events: ['ai_batch.completed'] });
    expect(endpoint.status).toBe(201);
    const body = { items: items(10_000, 'doc') };
    const created = await createBatch(body);
    expect(created.status).toBe(202);
    expect(created.headers.get('location')).toBe(`/v1/ai/batches/${created.body.id}`);
    expect(created.body).toMatchObject({ status: 'in_progress', model: 'extractive', priority: 'low', counts: { total: 10_000, admitted: 0, succeeded: 0, failed: 0 } });

    const retried = await createBatch(body);
    expect(retried.status).toBe(202);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body.id).toBe(created.body.id);

    const ended = await eventually(() => getBatch(created.body.id), (batch) => batch.status === 'ended', 'the batch to end', 1_500_000, 2_000);
    expect(ended.counts).toEqual({ total: 10_000, admitted: 10_000, succeeded: 10_000, failed: 0 });
    expect(ended.ended_at).not.toBeNull();

    const tasks = await batchTasks(created.body.id);
    expect(tasks).toHaveLength(10_000);
    expect(new Set(tasks.map((task) => task.id)).size).toBe(10_000);
    expect(new Set(tasks.map((task) => task.item_key))).toEqual(new Set(body.items.map((item) => item.key)));
    expect(tasks.every((task) => task.status === 'succeeded' && task.batch_id === created.body.id && task.created_at === created.body.created_at)).toBe(true);

    const one = await http<Task>(`${harness.baseUrl}/v1/ai/tasks/${tasks[0].id}`, { headers: bearer(key) });
    expect(one.body).toEqual(tasks[0]);
    // Items run on the batch queue, whose worker has slots of its own: a batch never holds the ones a single create needs.
    expect((await describeTask(tasks[0].id)).taskQueue).toBe(batchTaskQueue(harness.config.values.TEMPORAL_TASK_QUEUE));

    expect(await usageSince(harness.baseUrl, key, FIRST_DAY)).toEqual([expect.objectContaining({ model: 'extractive', tasks: 10_000 })]);

    const [event] = await receiver.waitFor(1, 60_000);
    expect(JSON.parse(event.body)).toMatchObject({ type: 'ai_batch.completed', data: { id: created.body.id, status: 'ended', counts: ended.counts } });

    const again = await createBatch(body);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(ended);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect((await getBatch(created.body.id)).counts).toEqual(ended.counts);
    expect(receiver.received).toHaveLength(1);
  }, 1_800_000);

  it('withdraws the items not admitted and cancels the running tasks on a cancel', async () => {
    const created = await createBatch({ model: 'held', items: items(2_000, 'held') });
    expect(created.status).toBe(202);
    const id = created.body.id as string;
    await eventually(() => getBatch(id), (batch) => batch.counts.admitted > 0, 'the first items to be admitted', 60_000);

    const canceled = await http(`${harness.baseUrl}/v1/ai/batches/${id}/cancel`, { method: 'POST', headers: bearer(key) });
    expect(canceled.status).toBe(202);
    const ended = await eventually(() => getBatch(id), (batch) => batch.status === 'ended', 'the canceled batch to end', 120_000);
    expect(ended.canceled_at).not.toBeNull();
    expect(ended.counts.admitted).toBeLessThan(2_000);
    expect(ended.counts).toEqual({ total: 2_000, admitted: ended.counts.admitted, succeeded: 0, failed: ended.counts.admitted });

    const tasks = await batchTasks(id);
    expect(tasks).toHaveLength(ended.counts.admitted);
    expect(tasks.every((task) => task.status === 'failed' && task.error.code === 'CANCELED')).toBe(true);

    const repeated = await http(`${harness.baseUrl}/v1/ai/batches/${id}/cancel`, { method: 'POST', headers: bearer(key) });
    expect(repeated.status).toBe(202);
    expect(repeated.body).toEqual(ended);
  }, 300_000);

  it('answers a reused Idempotency-Key with other items 422, and limits with 413', async () => {
    const first = await createBatch({ items: items(2, 'a') }, { 'idempotency-key': 'batch-key-1' });
    expect(first.status).toBe(202);
    const reused = await createBatch({ items: items(3, 'a') }, { 'idempotency-key': 'batch-key-1' });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const tooMany = await createBatch({ items: items(10_001, 'many') });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.error.code).toBe('PAYLOAD_TOO_LARGE');

    const duplicateKeys = await createBatch({ items: [...items(2, 'dup'), ...items(1, 'dup')] });
    expect(duplicateKeys.status).toBe(400);
    expect(duplicateKeys.body.error.message).toContain('items.2.key');

    const unknown = await http(`${harness.baseUrl}/v1/ai/batches/batch_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0`, { headers: bearer(key) });
    expect(unknown.status).toBe(404);
  });
});

describe('a live key at an API without encryption keys', () => {
  it('is refused a batch with 503 ENCRYPTION_REQUIRED before an item is staged, and a read of a live batch', async () => {
    // Started while no live key of the organisation existed; the key is issued after.
    const keyless = await harness.startApi({ PAYLOAD_ENCRYPTION: 'required' });
    const live = (await harness.issueKey('initech', 'live')).key;
    const refused = { status: 503, body: { error: { code: 'ENCRYPTION_REQUIRED' } } };
    const body = { task_type: 'summarize', items: items(3, 'refused') };
    expect(await http(`${keyless}/v1/ai/batches`, { method: 'POST', headers: { ...bearer(live), 'idempotency-key': 'first' }, json: body })).toMatchObject(refused);
    const batch = { environment: 'live' as const, organizationId: 'initech', batchId: batchIdForIdempotencyKey('initech', 'first') };
    expect(await (await harness.operatorStorage()).batchItems.page(batch, 0, 10)).toEqual([]);

    // Staged by the harness's API, told to keep production in plaintext (PAYLOAD_ENCRYPTION=off).
    const stored = await http(`${harness.baseUrl}/v1/ai/batches`, { method: 'POST', headers: bearer(live), json: body });
    expect(stored.status).toBe(202);
    for (const path of [`/v1/ai/batches/${stored.body.id}`, `/v1/ai/batches/${stored.body.id}/tasks`]) {
      expect(await http(`${keyless}${path}`, { headers: bearer(live) })).toMatchObject(refused);
    }
  });
});

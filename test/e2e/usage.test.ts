import { Connection } from '@temporalio/client';
import { taskWorkflowId } from '../../src/contract';
import { AssayClient, type Task, type TaskUsage } from '../../src/sdk';
import { AssayHarness } from '../support/assay-harness';
import { BuiltService } from '../support/built-service';
import { eventually } from '../support/eventually';
import { HeldProvider } from '../support/held-provider';
import { bearer, http } from '../support/http';
import { STAND_IN_USAGE } from '../support/remote-provider-env';
import { resetToFirstWorkflowTask } from '../support/operator-reset';
import { taskWhenFinal } from '../support/tasks';
import { SANDBOX_NAMESPACE } from '../support/test-temporal';
import { usageSince, utcDay } from '../support/usage-since';

// Usage per task and per day through the public API, counted once per task across a worker
// SIGKILLed mid-task, a retried workflow task and an operator's reset (which runs the task again).

const provider = new HeldProvider();
let providerUrl: string;
let harness: AssayHarness;
let connection: Connection;
let key: string;
const PRICE = { price_per_1k_input_tokens: 0.5, price_per_1k_output_tokens: 1.5 };
const FIRST_DAY = utcDay();

beforeAll(async () => {
  providerUrl = await provider.listen();
  harness = await AssayHarness.start({ worker: false, env: { ASSAY_MODELS: modelsSetting() } });
  connection = await Connection.connect({ address: harness.temporal.address });
  key = (await harness.issueKey('acme', 'test')).key;
});

afterAll(async () => {
  await connection?.close();
  await harness?.stop();
  await provider.close();
});

function modelsSetting(): string {
  return JSON.stringify([{ name: 'priced', base_url: providerUrl, context_tokens: 4096, concurrency: 4, ...PRICE }]);
}

async function startWorker(): Promise<BuiltService> {
  return BuiltService.start('worker', { ...harness.sharedEnv(), ASSAY_MODELS: modelsSetting(), WORKER_METRICS_PORT: '0', LOG_LEVEL: 'info' }, /model queue ready/, 2, 60_000);
}

async function create(body: object): Promise<Task> {
  const created = await http<Task>(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: { task_type: 'summarize', ...body } });
  expect(created.status).toBe(202);
  return created.body;
}

type ReadTask = Task & { usage?: TaskUsage };

const untilFinal = (id: string) => taskWhenFinal<ReadTask>(harness.baseUrl, key, id);

const usageSoFar = () => usageSince(harness.baseUrl, key, FIRST_DAY);

describe('usage', () => {
  let worker: BuiltService | undefined;

  afterEach(async () => {
    await worker?.kill();
    worker = undefined;
  });

  it('shows what each task used and sums it per day and model, each task once across a worker kill and a reset', async () => {
    worker = await startWorker();
    provider.release();
    const text = 'The council approved the transit plan on Tuesday. It adds three bus lines. Critics called the budget too high.';
    const extractive = await untilFinal((await create({ input: { text } })).id);
    expect(extractive).toMatchObject({ status: 'succeeded', model: 'extractive' });
    expect(extractive.usage).toEqual({
      model: 'extractive',
      provider_calls: 0,
      input_characters: text.length,
      output_characters: extractive.status === 'succeeded' ? extractive.output.summary.length : -1,
    });

    // A remote task whose worker is SIGKILLed while the provider holds its call.
    provider.hold();
    const arrived = provider.nextRequest();
    const remote = await create({ model: 'priced', input: { text } });
    await arrived;
    worker.signal('SIGKILL');
    await worker.exited;
    worker = await startWorker();
    provider.release();
    const finished = await untilFinal(remote.id);
    const cost = (STAND_IN_USAGE.prompt_tokens / 1000) * PRICE.price_per_1k_input_tokens + (STAND_IN_USAGE.completion_tokens / 1000) * PRICE.price_per_1k_output_tokens;
    expect(finished).toMatchObject({ status: 'succeeded', model: 'priced' });
    const pricedUsage = {
      model: 'priced',
      provider_calls: 1,
      input_tokens: STAND_IN_USAGE.prompt_tokens,
      output_tokens: STAND_IN_USAGE.completion_tokens,
      input_characters: text.length,
      output_characters: 'The provider summary.'.length,
      cost,
    };
    expect(finished.usage).toEqual(pricedUsage);

    // An operator's reset runs the task again, calling the provider again: the task still counts once.
    await resetToFirstWorkflowTask(connection, SANDBOX_NAMESPACE, taskWorkflowId('acme', remote.id));
    await eventually(async () => provider.requests, (requests) => requests >= 3, 'the reset run to call the provider', 60_000);
    const afterReset = await untilFinal(remote.id);
    expect(afterReset.status).toBe('succeeded');

    expect(await usageSoFar()).toEqual([
      { model: 'extractive', tasks: 1, provider_calls: 0, input_tokens: 0, output_tokens: 0, input_characters: text.length, output_characters: extractive.usage?.output_characters, cost: null },
      // One task: the total is its usage.
      { tasks: 1, ...pricedUsage },
    ]);
  }, 180_000);

  it('keeps an erased task\'s usage counted', async () => {
    worker = await startWorker();
    provider.release();
    const before = ((await usageSoFar()).find((total) => total.model === 'extractive')?.tasks as number | undefined) ?? 0;
    const task = await untilFinal((await create({ input: { text: 'A text to erase. Its usage stays counted.' } })).id);
    const erased = await http(`${harness.baseUrl}/v1/ai/tasks/${task.id}`, { method: 'DELETE', headers: bearer(key) });
    expect([202, 204]).toContain(erased.status);
    const after = await usageSoFar();
    expect(after.find((total) => total.model === 'extractive')?.tasks).toBe(before + 1);
    // The SDK reads the same report.
    const today = utcDay();
    const report = await http(`${harness.baseUrl}/v1/usage?from=${today}&to=${today}`, { headers: bearer(key) });
    expect(await new AssayClient({ baseUrl: harness.baseUrl, apiKey: key }).getUsage({ from: today, to: today })).toEqual(report.body);
  }, 60_000);

  it('refuses a malformed range with 400, and answers a range without days with no totals', async () => {
    for (const query of ['from=2026-13-01', 'to=yesterday', 'day=2026-11-01']) {
      const refused = await http(`${harness.baseUrl}/v1/usage?${query}`, { headers: bearer(key) });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('INVALID_REQUEST');
    }
    const today = utcDay();
    const empty = await http(`${harness.baseUrl}/v1/usage?from=${today}&to=2020-01-01`, { headers: bearer(key) });
    expect(empty).toMatchObject({ status: 200, body: { from: today, to: '2020-01-01', data: [] } });
  });
});

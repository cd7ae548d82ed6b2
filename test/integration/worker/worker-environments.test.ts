import { AssayHarness } from '../../support/assay-harness';
import { BuiltService } from '../../support/built-service';
import { bearer, http } from '../../support/http';
import { SUMMARIZE_TASK } from '../../support/tasks';
import { eventually } from '../../support/eventually';
import { defaultStickyCacheSize, machineStickyCacheBudget } from '../../../src/worker/sticky-cache-size';
import { PRODUCTION_NAMESPACE } from '../../support/test-temporal';

const WORKER_READY = /"msg":"worker ready"/;

let harness: AssayHarness;
let worker: BuiltService | undefined;

beforeAll(async () => {
  harness = await AssayHarness.start({ worker: false });
});

afterEach(async () => {
  await worker?.kill();
  worker = undefined;
});

afterAll(async () => {
  await harness?.stop();
});

describe('a worker process of one environment', () => {
  it('polls only the namespaces WORKER_ENVIRONMENTS names, with that environment’s slots and a cache sized for one environment', async () => {
    const env = { ...harness.sharedEnv(), LOG_LEVEL: 'info', WORKER_METRICS_PORT: '0', WORKER_ENVIRONMENTS: 'production', WORKER_SLOTS_PRODUCTION: '8', WORKER_ACTIVITY_SLOTS_PRODUCTION: '20' };
    worker = await BuiltService.start('worker', env, WORKER_READY);
    const key = (await harness.issueKey('acme', 'live')).key;
    const created = await http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: { ...bearer(key), prefer: 'wait=30' }, json: SUMMARIZE_TASK });
    expect(created.body).toMatchObject({ status: 'succeeded' });

    const ready = worker.log
      .split('\n')
      .filter((line) => WORKER_READY.test(line))
      .map((line) => JSON.parse(line));
    expect(ready).toEqual([expect.objectContaining({ namespace: PRODUCTION_NAMESPACE, slots: 8, activitySlots: 20, cachedWorkflows: defaultStickyCacheSize(machineStickyCacheBudget(1, false)) })]);
  });
});

// The task workers' workflow-task slots follow who works: WORKER_SLOTS_ALONE_FACTOR times
// WORKER_SLOTS_* while at most one organisation does (in either environment), their own number once
// another starts work.
describe('workflow-task slots while an organisation is alone', () => {
  const RESIZED = 'workflow-task slots resized';
  const resizes = (): Array<{ alone: boolean; slots: number[] }> =>
    (worker?.log ?? '')
      .split('\n')
      .filter((line) => line.includes(RESIZED))
      .map((line) => JSON.parse(line));
  const createTask = async (organisation: string) => {
    const key = (await harness.issueKey(organisation, 'test')).key;
    const created = await http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: { ...bearer(key), prefer: 'wait=30' }, json: SUMMARIZE_TASK });
    expect(created.body).toMatchObject({ status: 'succeeded' });
  };

  it('grows them while one organisation works, and shrinks them once a second one starts work', async () => {
    const env = { ...harness.sharedEnv(), LOG_LEVEL: 'info', WORKER_METRICS_PORT: '0', WORKER_ENVIRONMENTS: 'sandbox', WORKER_SLOTS_SANDBOX: '4', WORKER_SLOTS_ALONE_FACTOR: '3' };
    worker = await BuiltService.start('worker', env, WORKER_READY);
    await eventually(async () => resizes(), (seen) => seen.length > 0, 'the first look');
    expect(resizes()).toEqual([expect.objectContaining({ alone: true, slots: [12] })]);

    await createTask('first');
    await createTask('second');
    await eventually(async () => resizes(), (seen) => seen.some((resize) => !resize.alone), 'the slots to shrink', 15_000);
    expect(resizes()[1]).toMatchObject({ alone: false, slots: [4] });
  }, 60_000);
});

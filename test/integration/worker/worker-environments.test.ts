import { AssayHarness } from '../../support/assay-harness';
import { BuiltService } from '../../support/built-service';
import { bearer, http } from '../../support/http';
import { SUMMARIZE_TASK } from '../../support/tasks';
import { defaultStickyCacheSize, machineStickyCacheBudget } from '../../../src/worker/sticky-cache-size';
import { PRODUCTION_NAMESPACE } from '../../support/test-temporal';

const WORKER_READY = /"msg":"worker ready"/;

let harness: AssayHarness;
let worker: BuiltService | undefined;

beforeAll(async () => {
  harness = await AssayHarness.start({ worker: false });
});

afterAll(async () => {
  await worker?.kill();
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

import { AssayHarness } from '../../support/assay-harness';
import { BuiltService } from '../../support/built-service';
import { eventually } from '../../support/eventually';
import { bearer, http } from '../../support/http';
import { SUMMARIZE_TASK } from '../../support/tasks';

// The task workers' workflow-task slots follow who works: twice WORKER_SLOTS_* (sandbox, then
// production) while at most one organisation does, their own number once another starts work.

const WORKER_READY = /"msg":"worker ready"/;
const RESIZED = 'workflow-task slots resized';

let harness: AssayHarness;
let worker: BuiltService | undefined;

beforeAll(async () => {
  harness = await AssayHarness.start({ worker: false });
});

afterAll(async () => {
  await worker?.kill();
  await harness?.stop();
});

function resizes(): Array<{ alone: boolean; slots: number[] }> {
  return (worker?.log ?? '')
    .split('\n')
    .filter((line) => line.includes(RESIZED))
    .map((line) => JSON.parse(line));
}

async function createTask(organisation: string): Promise<void> {
  const key = (await harness.issueKey(organisation, 'test')).key;
  const created = await http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: { ...bearer(key), prefer: 'wait=30' }, json: SUMMARIZE_TASK });
  expect(created.body).toMatchObject({ status: 'succeeded' });
}

describe('workflow-task slots while an organisation is alone', () => {
  it('grows them while one organisation works, and shrinks them once a second one starts work', async () => {
    const env = { ...harness.sharedEnv(), LOG_LEVEL: 'info', WORKER_METRICS_PORT: '0', WORKER_SLOTS_SANDBOX: '4', WORKER_SLOTS_PRODUCTION: '6', WORKER_SLOTS_ALONE_FACTOR: '3' };
    worker = await BuiltService.start('worker', env, WORKER_READY);
    await eventually(async () => resizes(), (seen) => seen.length > 0, 'the first look');
    expect(resizes()).toEqual([expect.objectContaining({ alone: true, slots: [12, 18] })]);

    await createTask('first');
    await createTask('second');
    await eventually(async () => resizes(), (seen) => seen.some((resize) => !resize.alone), 'the slots to shrink', 15_000);
    expect(resizes()[1]).toMatchObject({ alone: false, slots: [4, 6] });
  }, 60_000);
});

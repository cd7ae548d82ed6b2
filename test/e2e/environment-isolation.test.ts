import { AssayHarness } from '../support/assay-harness';
import { eventually } from '../support/eventually';
import { HeldProvider } from '../support/held-provider';
import { bearer, http } from '../support/http';

const SANDBOX_TASKS = 6;
// The model's slots, shared by both environments: the sandbox may hold SLOTS of them, production any.
const SLOTS = 2;
const provider = new HeldProvider();
let harness: AssayHarness;

beforeAll(async () => {
  const url = await provider.listen();
  harness = await AssayHarness.start({
    env: { ASSAY_MODELS: JSON.stringify([{ name: 'held', base_url: url, concurrency: SLOTS + 1, sandbox_concurrency: SLOTS }]), ASSAY_DEFAULT_MODEL: 'held' },
  });
});

afterAll(async () => {
  provider.release();
  await harness?.stop();
  await provider.close();
});

async function createTask(key: string, text: string): Promise<string> {
  const created = await http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: { task_type: 'summarize', input: { text } } });
  expect(created.status).toBe(202);
  return created.body.id as string;
}

describe('environment isolation', () => {
  it("starts a production task while every sandbox slot is taken and the sandbox's backlog waits", async () => {
    const sandbox = (await harness.issueKey('acme', 'test')).key;
    const production = (await harness.issueKey('acme', 'live')).key;
    const sandboxIds: string[] = [];
    for (let index = 0; index < SANDBOX_TASKS; index++) sandboxIds.push(await createTask(sandbox, `Sandbox load ${index}.`));
    // Every sandbox task has been taken and asked for its summary (a call to the model); the
    // provider holds the two the sandbox's share of the model's slots allows, the other four wait.
    await eventually(
      () => Promise.all(sandboxIds.map(async (id) => (await http(`${harness.baseUrl}/v1/ai/tasks/${id}`, { headers: bearer(sandbox) })).body.status)),
      (statuses) => statuses.every((status) => status === 'running') && provider.requests === SLOTS,
      'the sandbox to fill its slots',
    );

    await createTask(production, 'Production work.');
    await eventually(async () => provider.bodies, (bodies) => bodies.some((body) => body.includes('Production work.')), 'the production summary to start');
    expect(provider.bodies.filter((body) => body.includes('Sandbox load'))).toHaveLength(SLOTS);
  });
});

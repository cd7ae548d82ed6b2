import { UNLIMITED_CREATES } from '../../bench/unlimited-creates';
import { modelTaskQueue } from '../../src/contract';
import { AssayHarness } from '../support/assay-harness';
import { FLOOD_ORGANIZATION, QUIET_ORGANIZATION } from '../support/dispatch-order';
import { eventually } from '../support/eventually';
import { bearer, http } from '../support/http';
import { ScriptedProvider } from '../support/scripted-provider';
import { setFairnessKeyRateLimit } from '../support/temporal-operator';

// The operator's per-organisation cap (docs/operations.md, tenant isolation): Temporal's dispatch
// rate per fairness key, set on a running service with the `temporal` CLI. A rate limit is about
// time, so this checks the one bound a slow machine cannot break: capped at one a second, the
// flood's 24 summaries cannot all reach the provider in much under 23 s (uncapped: under 1 s).
// The allowance covers the limiter's burst. It holds only because activities are not dispatched
// eagerly (ASSAY_SERVER_DYNAMIC_CONFIG): an eager activity never passes through the queue.
const FLOOD = 24;
const CAP_PER_SECOND = '1';
const BURST_ALLOWANCE = 8;
const CAPPED_SPAN_MS = ((FLOOD - BURST_ALLOWANCE) / Number(CAP_PER_SECOND)) * 1000;

const provider = new ScriptedProvider();
let harness: AssayHarness;

beforeAll(async () => {
  harness = await AssayHarness.start({ provider, env: UNLIMITED_CREATES });
});

afterAll(async () => {
  await harness?.stop();
});

async function createTask(key: string, text: string): Promise<string> {
  const created = await http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: { task_type: 'summarize', input: { text } } });
  expect(created.status).toBe(202);
  return created.body.id;
}

const succeeded = (key: string, id: string) =>
  eventually(() => http(`${harness.baseUrl}/v1/ai/tasks/${id}`, { headers: bearer(key) }), (response) => response.body.status === 'succeeded', `task ${id} to succeed`, 60_000);

const floodArrivals = () => provider.receivedAt.filter((_, index) => provider.bodies[index].includes(FLOOD_ORGANIZATION));

describe("an organisation's dispatch cap, set with the temporal CLI", () => {
  it("spreads one organisation's work out at the cap while another's runs at once, and lifts", async () => {
    // The summaries are calls to the provider's model, which run on the model's own task queue.
    const queue = modelTaskQueue(harness.config.values.TEMPORAL_TASK_QUEUE, harness.config.models.defaultName);
    const flood = await harness.issueKey(FLOOD_ORGANIZATION, 'test');
    const quiet = await harness.issueKey(QUIET_ORGANIZATION, 'test');
    await setFairnessKeyRateLimit(harness.temporal.address, queue, CAP_PER_SECOND);

    const floodIds = await Promise.all(Array.from({ length: FLOOD }, (_, index) => createTask(flood.key, `Item ${index} of ${FLOOD_ORGANIZATION}.`)));
    await succeeded(quiet.key, await createTask(quiet.key, `The one task of ${QUIET_ORGANIZATION}.`));
    expect(floodArrivals().length).toBeLessThan(FLOOD);

    for (const id of floodIds) await succeeded(flood.key, id);
    const arrivals = floodArrivals();
    expect(arrivals).toHaveLength(FLOOD);
    expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeGreaterThanOrEqual(CAPPED_SPAN_MS);

    // Lifted, the next flood goes at once.
    await setFairnessKeyRateLimit(harness.temporal.address, queue, 'default');
    const before = arrivals.length;
    const next = await Promise.all(Array.from({ length: FLOOD }, (_, index) => createTask(flood.key, `Item ${FLOOD + index} of ${FLOOD_ORGANIZATION}.`)));
    for (const id of next) await succeeded(flood.key, id);
    const lifted = floodArrivals().slice(before);
    expect(Math.max(...lifted) - Math.min(...lifted)).toBeLessThan(CAPPED_SPAN_MS);
  });
});

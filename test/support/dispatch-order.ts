import { AssayHarness } from './assay-harness';
import { eventually } from './eventually';
import { bearer, http } from './http';
import { ScriptedProvider } from './scripted-provider';
import { startTestTemporal } from './test-temporal';

export const FLOOD_ORGANIZATION = 'flood-co';
export const QUIET_ORGANIZATION = 'quiet-co';

/**
 * For this test file: the whole service with its worker held back, on a dev server dispatching
 * fairly or in arrival order, started before its tests and stopped after them.
 */
export function useHeldService(fairness: boolean): { summaryOrderAfterBacklog(backlog: number): Promise<string[]> } {
  const provider = new ScriptedProvider();
  let harness: AssayHarness | undefined;
  beforeAll(async () => {
    harness = await AssayHarness.start({
      temporal: await startTestTemporal({ fairness }),
      provider,
      worker: 'later',
      // The fewest slots the SDK allows: the worker takes tasks nearly one at a time, in dispatch order.
      env: { WORKER_SLOTS_SANDBOX: '2', WORKER_ACTIVITY_SLOTS_SANDBOX: '2' },
    });
  });
  afterAll(async () => {
    await harness?.stop();
  });
  return {
    summaryOrderAfterBacklog: (backlog) => {
      if (!harness) throw new Error('the service did not start');
      return summaryOrderAfterBacklog(harness, provider, backlog);
    },
  };
}

/**
 * Queues `backlog` tasks of one organisation, then one of another, while no worker runs; starts
 * the worker and answers whose summary the provider received in which order. A remote provider
 * summarises in an activity, so this is the order the task queue dispatched the work in.
 */
async function summaryOrderAfterBacklog(harness: AssayHarness, provider: ScriptedProvider, backlog: number): Promise<string[]> {
  const flood = await harness.issueKey(FLOOD_ORGANIZATION, 'test');
  const quiet = await harness.issueKey(QUIET_ORGANIZATION, 'test');
  const create = async (key: string, text: string) => {
    const created = await http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: { task_type: 'summarize', input: { text } } });
    if (created.status !== 202) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
  };
  for (let index = 0; index < backlog; index++) await create(flood.key, `Backlog item ${index} of ${FLOOD_ORGANIZATION}.`);
  await create(quiet.key, `The one task of ${QUIET_ORGANIZATION}.`);
  await harness.startWorker();
  await eventually(async () => provider.bodies.length, (received) => received >= backlog + 1, 'every summary to reach the provider', 60_000);
  return provider.bodies.map((body) => (body.includes(QUIET_ORGANIZATION) ? QUIET_ORGANIZATION : FLOOD_ORGANIZATION));
}

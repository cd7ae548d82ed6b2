import { sleep } from '../../chaos/clients/concurrency';
import { PROFILES } from '../../chaos/profiles';
import { formatTable } from '../../chaos/report/table';
import type { ScenarioResult } from '../../chaos/report/scenario-result';
import { runCrashLoad, type CrashLoadSpec } from '../../chaos/scenarios/crash-scenario';
import { seconds } from '../../chaos/scenarios/scenario-context';
import { UNLIMITED_CREATES } from '../../bench/unlimited-creates';
import type { ClusterProcessName } from '../../src/cluster/cluster';
import { ClusterStack } from '../support/cluster-stack';

// The chaos suite's crash scenario (chaos/scenarios/crash-scenario.ts) against the production
// topology: 1,000 tasks (and a few assessments) per scenario, one process killed with SIGKILL a
// third of the way in and started again a second later. Each scenario has a cluster of its own, so
// every workflow in its namespace is its own work.
const PROFILE = PROFILES.cluster;
const DOWNTIME_MS = 1_000;
const SLOW_SUMMARIES = { minMs: 300, maxMs: 1_500 };
const SCENARIO_TIMEOUT_MS = 15 * 60_000;

interface KillScenario {
  process: ClusterProcessName;
  /** Reads may meet the documented 503 + Retry-After while the process is down. */
  temporalOutage: boolean;
}

const KILLS: KillScenario[] = [
  { process: 'history', temporalOutage: true },
  { process: 'matching', temporalOutage: true },
  { process: 'frontend', temporalOutage: true },
  { process: 'api-1', temporalOutage: false },
  { process: 'worker-1', temporalOutage: false },
];

function killAndRestart({ process: name, temporalOutage }: KillScenario): CrashLoadSpec<ClusterStack> {
  return {
    name: `kill -9 ${name}, restart`,
    tasks: PROFILE.crashTasks,
    assessments: PROFILE.crashAssessments,
    temporalOutage,
    async fault(stack) {
      await stack.cluster.kill(name);
      await sleep(DOWNTIME_MS);
      const restartedAt = Date.now();
      await stack.cluster.restart(name);
      return { recoveryFrom: restartedAt, recoveryEvent: 'restart', notes: [`${name} serving again ${seconds(Date.now() - restartedAt)} after its restart`] };
    },
  };
}

const results: ScenarioResult[] = [];

afterAll(() => {
  // The table the chaos suite prints, for the CI log and docs/reliability.md.
  if (results.length > 0) process.stdout.write(`\nProcess kills on the cluster (${PROFILE.crashTasks} tasks each):\n${formatTable(results)}\n`);
});

describe.each(KILLS)('the cluster with $process killed by SIGKILL mid-load and restarted', (kill) => {
  it('loses and doubles nothing, and answers no 5xx but 503 while a dependency is down', async () => {
    const stack = await ClusterStack.start({ label: kill.process, providerDelay: SLOW_SUMMARIES, serviceEnv: UNLIMITED_CREATES });
    const lines: string[] = [];
    const result = await runCrashLoad(stack, killAndRestart(kill), { profile: PROFILE, log: (line) => lines.push(line) });
    results.push(result);
    expect({
      lost: result.lost,
      duplicated: result.duplicated,
      serverErrors: result.serverErrors,
      notSucceeded: result.tasks - result.succeeded,
      problems: result.problems.length === 0 ? [] : [...result.problems, ...lines],
    }).toEqual({ lost: 0, duplicated: 0, serverErrors: 0, notSucceeded: 0, problems: [] });
    expect(result.tasks).toBeGreaterThanOrEqual(1_000);
  }, SCENARIO_TIMEOUT_MS);
});

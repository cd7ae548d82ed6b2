import { sleep } from '../clients/concurrency';
import type { Profile } from '../profiles';
import type { DelayRange } from '../stack/slow-provider';
import type { CrashScenarioSpec } from './crash-scenario';
import { seconds } from './scenario-context';

// Summaries take long enough that a kill always finds some in flight.
const SLOW_SUMMARIES: DelayRange = { minMs: 300, maxMs: 1_500 };
// How long a killed process stays down before it is started again (a supervisor's restart delay).
const DOWNTIME_MS = 1_000;

/** kill -9 the only worker while tasks and assessment checks run, then start it again. */
export function workerKill(profile: Profile): CrashScenarioSpec {
  return {
    name: 'kill -9 worker, restart',
    stack: { label: 'worker-kill', providerDelay: SLOW_SUMMARIES },
    tasks: profile.crashTasks,
    assessments: profile.crashAssessments,
    temporalOutage: false,
    async fault(stack, log) {
      log('kill -9 the worker');
      await stack.killWorker('worker-1');
      await sleep(DOWNTIME_MS);
      const restartedAt = Date.now();
      await stack.startWorker('worker-1');
      return { recoveryFrom: restartedAt, recoveryEvent: 'restart', notes: [`worker polling again ${seconds(Date.now() - restartedAt)} after its restart`] };
    },
  };
}

/** kill -9 the API while clients POST with Idempotency-Keys; the SDK's retries meet the restarted API. */
export function apiKill(profile: Profile): CrashScenarioSpec {
  return {
    name: 'kill -9 API, restart',
    stack: { label: 'api-kill', providerDelay: SLOW_SUMMARIES },
    tasks: profile.crashTasks,
    assessments: 0,
    temporalOutage: false,
    async fault(stack, log) {
      log('kill -9 the API');
      await stack.killApi();
      await sleep(DOWNTIME_MS);
      const restartedAt = Date.now();
      await stack.startApi();
      return { recoveryFrom: restartedAt, recoveryEvent: 'restart', notes: [`API listening again ${seconds(Date.now() - restartedAt)} after its restart`] };
    },
  };
}

/** kill -9 the Temporal dev server mid-load and start it again on the same SQLite file. */
export function temporalKill(profile: Profile): CrashScenarioSpec {
  return {
    name: 'kill -9 Temporal, restart on same DB',
    stack: { label: 'temporal-kill', providerDelay: SLOW_SUMMARIES },
    tasks: profile.crashTasks,
    assessments: 0,
    temporalOutage: true,
    async fault(stack, log) {
      log('kill -9 the Temporal dev server');
      await stack.killTemporal();
      await sleep(DOWNTIME_MS);
      const restartedAt = Date.now();
      await stack.startTemporal();
      return { recoveryFrom: restartedAt, recoveryEvent: 'restart', notes: [`Temporal serving again ${seconds(Date.now() - restartedAt)} after its restart`] };
    },
  };
}

/** Two workers; one is killed for good and the other finishes everything. */
export function workerLost(profile: Profile): CrashScenarioSpec {
  return {
    name: 'two workers, one killed for good',
    stack: { label: 'worker-lost', providerDelay: SLOW_SUMMARIES, workers: ['worker-1', 'worker-2'] },
    tasks: profile.crashTasks,
    assessments: 0,
    temporalOutage: false,
    async fault(stack, log) {
      log('kill -9 worker-1 (it stays down)');
      const killedAt = Date.now();
      await stack.killWorker('worker-1');
      return { recoveryFrom: killedAt, recoveryEvent: 'kill', notes: ['nothing restarts: recovery is counted from the kill'] };
    },
  };
}

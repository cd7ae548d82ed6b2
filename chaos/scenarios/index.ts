import type { ScenarioResult } from '../report/scenario-result';
import { runCrashScenario } from './crash-scenario';
import { runLoadWithDuplicates } from './load-with-duplicates';
import { runMalformedInput } from './malformed-input';
import { apiKill, temporalKill, workerKill, workerLost } from './process-kills';
import { runReviewRestart } from './review-restart';
import type { ScenarioRun } from './scenario-context';

export type ScenarioRunner = (run: ScenarioRun) => Promise<ScenarioResult>;

/** Every scenario of the suite, by the name `--only` takes, in the order the table lists them. */
export const SCENARIOS: Readonly<Record<string, ScenarioRunner>> = {
  'worker-kill': (run) => runCrashScenario(workerKill(run.profile), run),
  'api-kill': (run) => runCrashScenario(apiKill(run.profile), run),
  'temporal-kill': (run) => runCrashScenario(temporalKill(run.profile), run),
  'worker-lost': (run) => runCrashScenario(workerLost(run.profile), run),
  'review-restart': runReviewRestart,
  'load-duplicates': runLoadWithDuplicates,
  'malformed-input': runMalformedInput,
};

export type ScenarioName = keyof typeof SCENARIOS;

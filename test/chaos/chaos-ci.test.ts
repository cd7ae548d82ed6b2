import { forEachConcurrently } from '../../chaos/clients/concurrency';
import { PROFILES } from '../../chaos/profiles';
import type { ScenarioResult } from '../../chaos/report/scenario-result';
import { SCENARIOS } from '../../chaos/scenarios';
import { builtEntrypoints } from '../../chaos/stack/built-entrypoints';

// The chaos suite's CI profile (`npm run test:chaos` runs the same scenarios one by one and
// prints their figures). Each scenario starts its own Temporal dev server, API and workers from
// dist/, on free ports, and kills them with SIGKILL. Several run at once here: most of their
// time is spent waiting for Temporal's timeouts, not computing.
const SCENARIOS_AT_ONCE = 3;
const SUITE_TIMEOUT_MS = 12 * 60_000;

const results = new Map<string, ScenarioResult>();
const logs = new Map<string, string[]>();

beforeAll(async () => {
  builtEntrypoints();
  // Longest first, so the slow ones do not end up last on their own.
  const order = ['worker-kill', 'worker-lost', 'temporal-kill', 'malformed-input', 'load-duplicates', 'api-kill', 'review-restart'];
  await forEachConcurrently(order, SCENARIOS_AT_ONCE, async (name) => {
    const lines: string[] = [];
    logs.set(name, lines);
    results.set(name, await SCENARIOS[name]({ profile: PROFILES.ci, log: (line) => lines.push(line) }));
  });
}, SUITE_TIMEOUT_MS);

/** What must hold for every scenario; on failure the diff shows each problem and where the logs were kept. */
function verdict(name: string) {
  const result = results.get(name);
  if (!result) throw new Error(`scenario ${name} did not run`);
  return {
    lost: result.lost,
    duplicated: result.duplicated,
    serverErrors: result.serverErrors,
    notSucceeded: result.tasks - result.succeeded,
    problems: result.problems.length === 0 ? [] : [...result.problems, ...(logs.get(name) ?? [])],
  };
}

const CLEAN = { lost: 0, duplicated: 0, serverErrors: 0, notSucceeded: 0, problems: [] };

describe('a process killed with SIGKILL loses and doubles nothing', () => {
  it('a worker killed mid-work and restarted: every task and assessment is done exactly once', () => {
    expect(verdict('worker-kill')).toEqual(CLEAN);
  });

  it('the API killed while clients POST with Idempotency-Keys: their retries create each task once', () => {
    expect(verdict('api-kill')).toEqual(CLEAN);
  });

  it('the Temporal server killed mid-load and restarted on its database: every accepted task completes once', () => {
    expect(verdict('temporal-kill')).toEqual(CLEAN);
  });

  it('one of two workers killed for good: the other finishes everything, once', () => {
    expect(verdict('worker-lost')).toEqual(CLEAN);
  });

  it('assessments waiting for a reviewer survive a SIGKILL of every process and are then reviewed', () => {
    expect(verdict('review-restart')).toEqual(CLEAN);
  });
});

describe('load with duplicate Idempotency-Keys', () => {
  it('creates exactly one task per key, all succeeded, with no 5xx to creates or polls', () => {
    expect(verdict('load-duplicates')).toEqual(CLEAN);
  });
});

describe('malformed requests', () => {
  it('10,000 generated bad requests are each refused with a 4xx and the error body, and the API keeps serving', () => {
    expect(results.get('malformed-input')?.tasks).toBeGreaterThanOrEqual(10_000);
    expect(verdict('malformed-input')).toEqual(CLEAN);
  });
});

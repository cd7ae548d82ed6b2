import type { Tally } from '../evidence/tally';
import type { ScenarioResult } from './scenario-result';

/** What the clients' HTTP answers add to a row: the 5xx they got, and a sample of each. */
export interface ServerErrorsSeen {
  serverErrors: number;
  samples: readonly string[];
}

/**
 * A scenario's row from its tally of the work against what the server holds and the 5xx its
 * clients were answered; `problems` are the scenario's own findings beyond the tally's.
 */
export function tallyResult(
  scenario: string,
  tally: Tally,
  answers: ServerErrorsSeen,
  details: { notes: string[]; problems?: readonly string[]; recoveryMs?: number },
): ScenarioResult {
  return {
    scenario,
    tasks: tally.items,
    succeeded: tally.succeeded,
    lost: tally.lost,
    duplicated: tally.duplicated,
    serverErrors: answers.serverErrors,
    ...(details.recoveryMs === undefined ? {} : { recoveryMs: details.recoveryMs }),
    notes: details.notes,
    problems: [...tally.problems, ...(details.problems ?? []), ...answers.samples.map((sample) => `5xx: ${sample}`)],
  };
}

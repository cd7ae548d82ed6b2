/** One row of the table, plus what a reader needs to interpret it. */
export interface ScenarioResult {
  scenario: string;
  /** Work items submitted (tasks, plus assessments where a scenario has them). */
  tasks: number;
  succeeded: number;
  lost: number;
  duplicated: number;
  serverErrors: number;
  /** docs/reliability.md, Evidence: from the restart (or the kill, for a process killed for good) until every accepted item is done. */
  recoveryMs?: number;
  notes: string[];
  /** Details of every lost, duplicated or failed item and of 5xx answers; empty on a clean run. */
  problems: string[];
}

export function isClean(result: ScenarioResult): boolean {
  return result.lost === 0 && result.duplicated === 0 && result.serverErrors === 0 && result.succeeded === result.tasks && result.problems.length === 0;
}

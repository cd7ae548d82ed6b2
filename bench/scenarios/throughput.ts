import type { ProcessCost } from '../usage-meter';

/** N tasks pushed through as fast as the path allows, with `concurrency` submissions in flight. */
export interface ThroughputFigure {
  tasks: number;
  concurrency: number;
  /** From the first submission to the last accepted one. */
  submitPhaseMs: number;
  /** From the first submission to the last completion the client saw. */
  totalMs: number;
  submitsPerSecond: number;
  completionsPerSecond: number;
  /** Tasks that did not end succeeded, or whose submission failed. */
  failures: number;
  costs: ProcessCost[];
}

export function throughputFigure(
  tasks: number,
  concurrency: number,
  startedAt: number,
  submittedAt: number,
  completedAt: number,
  failures: number,
  costs: ProcessCost[],
): ThroughputFigure {
  const submitPhaseMs = submittedAt - startedAt;
  const totalMs = completedAt - startedAt;
  return {
    tasks,
    concurrency,
    submitPhaseMs,
    totalMs,
    submitsPerSecond: tasks / (submitPhaseMs / 1000),
    completionsPerSecond: tasks / (totalMs / 1000),
    failures,
    costs,
  };
}

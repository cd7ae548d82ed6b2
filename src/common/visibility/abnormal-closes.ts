import { oneOf } from './visibility-query';

/**
 * How Temporal's visibility names a run that closed without the workflow's own code running to
 * its end: an operator terminated it, its execution timeout passed, or it was canceled or failed
 * outside the workflow's error handling. No workflow code published a status or emitted an event
 * then; GET shows such a task as failed and such an assessment as it last published itself.
 */
export const ABNORMAL_CLOSE_STATUSES = ['Terminated', 'TimedOut', 'Canceled', 'Failed'] as const;

/** The visibility clause for runs that closed abnormally, from Temporal's own ExecutionStatus. */
export function closedAbnormally(): string {
  return oneOf('ExecutionStatus', ABNORMAL_CLOSE_STATUSES);
}

import { STATUS_SEARCH_ATTRIBUTE, type TaskStatus } from '../../contract';
import { closedAbnormally } from '../../common/visibility/abnormal-closes';
import { either, equals } from '../../common/visibility/visibility-query';

/**
 * Visibility clauses for a task status, matching what GET shows. `succeeded` is only ever written
 * by the task as it completes; `failed` is written the same way, or is a run that closed
 * abnormally (terminated, timed out), for which no task code ran to write it; queued and running
 * are both a running run and are told apart per item.
 */
export function taskStatusClauses(status: TaskStatus): string[] {
  switch (status) {
    case 'succeeded':
      return [equals(STATUS_SEARCH_ATTRIBUTE.name, status)];
    case 'failed':
      return [either(equals(STATUS_SEARCH_ATTRIBUTE.name, status), closedAbnormally())];
    default:
      return [equals('ExecutionStatus', 'Running')];
  }
}

import { ActivityFailure, ApplicationFailure, TimeoutFailure, isCancellation } from '@temporalio/workflow';
import { ACTIVITY_TASK_ERROR_CODES, TASK_CANCELED_ERROR, TASK_INTERNAL_ERROR, TASK_TIMED_OUT_ERROR, type TaskError, type TaskErrorCode } from '../src/contract';

// Any other failure of an activity is a defect and shows as INTERNAL.
const ACTIVITY_ERROR_CODES: ReadonlySet<string> = new Set(ACTIVITY_TASK_ERROR_CODES);

/** The client-facing error of a task whose work failed for good (retries exhausted or not retryable). */
export function taskErrorFrom(error: unknown): TaskError {
  if (isCancellation(error)) return TASK_CANCELED_ERROR;
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof TimeoutFailure) return TASK_TIMED_OUT_ERROR;
  if (cause instanceof ApplicationFailure && cause.type && ACTIVITY_ERROR_CODES.has(cause.type)) {
    return { code: cause.type as TaskErrorCode, message: cause.message };
  }
  return TASK_INTERNAL_ERROR;
}

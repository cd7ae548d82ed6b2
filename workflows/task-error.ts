import { ActivityFailure, ApplicationFailure, TimeoutFailure, isCancellation } from '@temporalio/workflow';
import type { TaskError, TaskErrorCode } from '../src/contract';

// The failure types activities raise on purpose; anything else is a defect and shows as INTERNAL.
const ACTIVITY_ERROR_CODES: ReadonlySet<string> = new Set<TaskErrorCode>(['INPUT_REJECTED', 'PROVIDER_UNAVAILABLE']);

/** The client-facing error of a task whose work failed for good (retries exhausted or not retryable). */
export function taskErrorFrom(error: unknown): TaskError {
  if (isCancellation(error)) return { code: 'CANCELED', message: 'The task was canceled' };
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof TimeoutFailure) return { code: 'TIMED_OUT', message: 'The task did not finish in time' };
  if (cause instanceof ApplicationFailure && cause.type && ACTIVITY_ERROR_CODES.has(cause.type)) {
    return { code: cause.type as TaskErrorCode, message: cause.message };
  }
  return { code: 'INTERNAL', message: 'The task failed because of an internal error' };
}

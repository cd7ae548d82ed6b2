import { ActivityFailure, ApplicationFailure, TimeoutFailure, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { SummarizeActivities } from '../activities/summarize/summarize.activity';
import type { AiTaskOutcome, AiTaskWorkflowInput, TaskError, TaskErrorCode } from './shared';

const { summarize } = proxyActivities<SummarizeActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    maximumAttempts: 6,
    nonRetryableErrorTypes: ['INPUT_REJECTED'],
  },
});

const ACTIVITY_ERROR_CODES: ReadonlySet<string> = new Set<TaskErrorCode>(['INPUT_REJECTED', 'PROVIDER_UNAVAILABLE']);

/** One AI task: run it, and always close with an outcome the API can show (a failure is data, not a crash). */
export async function aiTaskWorkflow(input: AiTaskWorkflowInput): Promise<AiTaskOutcome> {
  try {
    const summary = await summarize(input.input);
    return { status: 'succeeded', output: { summary } };
  } catch (error) {
    return { status: 'failed', error: taskErrorFrom(error) };
  }
}

function taskErrorFrom(error: unknown): TaskError {
  if (isCancellation(error)) return { code: 'CANCELED', message: 'The task was canceled' };
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof TimeoutFailure) return { code: 'TIMED_OUT', message: 'The task did not finish in time' };
  if (cause instanceof ApplicationFailure && cause.type && ACTIVITY_ERROR_CODES.has(cause.type)) {
    return { code: cause.type as TaskErrorCode, message: cause.message };
  }
  return { code: 'INTERNAL', message: 'The task failed because of an internal error' };
}

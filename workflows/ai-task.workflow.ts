import { proxyActivities } from '@temporalio/workflow';
import type { SummarizeActivities } from '../activities/summarize/summarize.activity';
import type { AiTaskOutcome, AiTaskWorkflowInput } from './shared';
import { taskErrorFrom } from './task-error';

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

/** One AI task: run it, and always close with an outcome the API can show (a failure is data, not a crash). */
export async function aiTaskWorkflow(input: AiTaskWorkflowInput): Promise<AiTaskOutcome> {
  try {
    const summary = await summarize(input.input);
    return { status: 'succeeded', output: { summary } };
  } catch (error) {
    return { status: 'failed', error: taskErrorFrom(error) };
  }
}

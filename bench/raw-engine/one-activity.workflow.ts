import { proxyActivities } from '@temporalio/workflow';
import type { SummarizeActivities } from '../../activities/summarize/summarize.activity';
import type { SummarizeInput } from '../../workflows/shared';

// The task workflow's activity options, so the engine does the same timer and retry bookkeeping.
const { summarize } = proxyActivities<SummarizeActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 6 },
});

/** The least a Temporal design of a task can be: one workflow, one activity, the summary as its result. */
export async function oneActivityWorkflow(input: SummarizeInput): Promise<string> {
  return summarize(input);
}

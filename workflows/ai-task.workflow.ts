import { patched, proxyActivities, upsertMemo, upsertSearchAttributes } from '@temporalio/workflow';
import type { SummarizeActivities } from '../activities/summarize/summarize.activity';
import { PUBLISH_TASK_OUTCOME_PATCH, STATUS_SEARCH_ATTRIBUTE, type AiTaskOutcome, type AiTaskWorkflowInput } from './shared';
import { taskErrorFrom } from './task-error';
import { EMIT_WEBHOOK_EVENTS_PATCH, emitWebhookEvent } from './webhook-events';

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
  const outcome = await runTask(input);
  if (patched(PUBLISH_TASK_OUTCOME_PATCH)) {
    upsertSearchAttributes([{ key: STATUS_SEARCH_ATTRIBUTE, value: outcome.status }]);
    upsertMemo({ outcome });
  }
  if (patched(EMIT_WEBHOOK_EVENTS_PATCH)) await emitWebhookEvent('ai_task.completed', input.organizationId, input.taskId);
  return outcome;
}

async function runTask(input: AiTaskWorkflowInput): Promise<AiTaskOutcome> {
  try {
    const summary = await summarize(input.input);
    return { status: 'succeeded', output: { summary } };
  } catch (error) {
    return { status: 'failed', error: taskErrorFrom(error) };
  }
}

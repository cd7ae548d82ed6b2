import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client, type WorkflowExecutionInfo } from '@temporalio/client';
import type { Priority } from '@temporalio/common';
import { parseAssessmentWorkflowId } from '../../src/common/ids/assessment-ids';
import { taskIdFromWorkflowId } from '../../src/common/ids/task-ids';
import { toAssessmentResource } from '../../src/common/resources/assessment-resource';
import { taskFromDescription } from '../../src/common/resources/task-from-description';
import { closedAbnormally } from '../../src/common/visibility/abnormal-closes';
import { oneOf, quote, visibilityQuery } from '../../src/common/visibility/visibility-query';
import {
  AI_TASK_WORKFLOW_TYPE,
  ASSESSMENT_WORKFLOW_TYPE,
  ORGANIZATION_SEARCH_ATTRIBUTE,
  WEBHOOK_EVENT_WORKFLOW_TYPE,
  outcomeEventId,
  reviewOutcomeName,
  taskOutcomeName,
  webhookEventWorkflowId,
  type AiTaskOutcome,
  type AssessmentMemo,
  type OperatorCloseSweepActivities,
  type WebhookEventInput,
  type WebhookEventType,
  type WebhookSubscriberQuery,
} from '../../src/contract';

/**
 * The sweep activity: every task or assessment run that closed abnormally since `closedSince`
 * and is still the current run of its workflow id (a run an operator's reset replaced is not: the
 * new run decides) gets the event of the outcome GET shows for it, started with the outcome's own
 * id, so a sweep that finds it again, or a run that reached it already, starts nothing new.
 */
export function createOperatorCloseSweep(hasWebhookSubscribers: (query: WebhookSubscriberQuery) => Promise<boolean>, retentionMs: number): OperatorCloseSweepActivities {
  return {
    async sweepOperatorCloses({ closedSince }) {
      const context = Context.current();
      const query = visibilityQuery([
        oneOf('WorkflowType', [AI_TASK_WORKFLOW_TYPE, ASSESSMENT_WORKFLOW_TYPE]),
        closedAbnormally(),
        `CloseTime >= ${quote(closedSince)}`,
      ]);
      let started = 0;
      for await (const run of context.client.workflow.list({ query })) {
        const outcome = await outcomeEventOf(context.client, run, retentionMs);
        if (!outcome || !(await hasWebhookSubscribers({ organizationId: outcome.event.organizationId, type: outcome.event.type }))) continue;
        if (await startEvent(context.client, context.info.taskQueue, outcome)) started++;
      }
      return started;
    },
  };
}

/** The event a closed run's outcome calls for, with the run's priority, which the event keeps as a child workflow of the run would. */
interface OutcomeEvent {
  event: WebhookEventInput & { type: WebhookEventType };
  priority?: Priority;
}

async function outcomeEventOf(client: Client, run: WorkflowExecutionInfo, retentionMs: number): Promise<OutcomeEvent | undefined> {
  const organizationId = run.typedSearchAttributes.get(ORGANIZATION_SEARCH_ATTRIBUTE);
  const handle = client.workflow.getHandle(run.workflowId);
  const current = await handle.describe().catch((error: unknown) => {
    if (error instanceof WorkflowNotFoundError) return undefined;
    throw error;
  });
  if (!organizationId || current?.runId !== run.runId) return undefined;
  const base = { organizationId, createdAt: (run.closeTime ?? new Date()).toISOString(), sourceWorkflowId: run.workflowId };
  const taskId = taskIdFromWorkflowId(run.workflowId);
  if (taskId) {
    const { resource } = await taskFromDescription(taskId, current, () => handle.result() as Promise<AiTaskOutcome>, retentionMs);
    if (resource.status !== 'failed' || !resource.error) return undefined;
    const eventId = outcomeEventId(taskId, taskOutcomeName({ status: 'failed', error: resource.error }));
    return { event: { ...base, eventId, type: 'ai_task.completed', resourceId: taskId }, priority: current.priority };
  }
  const assessmentId = parseAssessmentWorkflowId(run.workflowId)?.assessmentId;
  // An assessment closed before its review has no outcome to announce; one closed after it has.
  const review = assessmentId ? toAssessmentResource(assessmentId, current.memo as unknown as AssessmentMemo, null).review : undefined;
  if (!assessmentId || !review) return undefined;
  const eventId = outcomeEventId(assessmentId, reviewOutcomeName(review.verdict));
  return { event: { ...base, eventId, type: 'assessment.reviewed', resourceId: assessmentId }, priority: current.priority };
}

/** Starts the event's workflow; false when it exists already (the outcome was announced). */
async function startEvent(client: Client, taskQueue: string, { event, priority }: OutcomeEvent): Promise<boolean> {
  try {
    await client.workflow.start(WEBHOOK_EVENT_WORKFLOW_TYPE, {
      taskQueue,
      priority,
      workflowId: webhookEventWorkflowId(event.organizationId, event.eventId),
      args: [event],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}

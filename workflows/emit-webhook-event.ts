// How a workflow emits a webhook event: a workflow-only helper (the event types live in the contract).

import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { CancellationScope, patched, proxyLocalActivities, startChild, uuid4, workflowInfo } from '@temporalio/workflow';
import {
  OUTCOME_EVENT_IDS_PATCH,
  WEBHOOK_EVENT_ID_PREFIX,
  outcomeEventId,
  WEBHOOK_EVENT_WORKFLOW_TYPE,
  webhookEventWorkflowId,
  type WebhookEventInput,
  type WebhookEventType,
  type WebhookSubscriberActivities,
} from '../src/contract';

// A local activity: one indexed read on the worker, no round trip through the server.
const { hasWebhookSubscribers } = proxyLocalActivities<WebhookSubscriberActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumAttempts: 3 },
});

/**
 * Starts the event's own workflow and returns as soon as it has started: delivery may take days
 * and must neither hold the emitting workflow open nor end with it (ABANDON). The id comes from
 * the event id, which comes from the resource and its outcome: a retried start, or another run
 * that reached the same outcome after an operator's reset, finds the event already started and
 * leaves it be, so receivers get that outcome once, under one webhook-id. Not cancellable: a
 * canceled task still completes (as failed) and its event must go out. Most organisations have no
 * endpoint, so the event workflow is started only for one that has a subscriber; when that cannot
 * be checked, the event goes out anyway and the event workflow finds the endpoints durably. A
 * caller that already found subscribers in one of its own local activities says so with
 * `knownSubscribed`; one that found none does not call this at all, which spares the workflow this
 * call's promises (the SDK records a stack trace for each).
 */
export async function emitWebhookEvent(type: WebhookEventType, organizationId: string, resourceId: string, outcome: string, knownSubscribed?: true): Promise<void> {
  const subscribed = knownSubscribed ?? (await CancellationScope.nonCancellable(() => hasWebhookSubscribers({ organizationId, type })).catch(() => true));
  if (!subscribed) return;
  // A random id is replay only (outcome-event-ids; for tasks from 2026-12-23, for assessments docs/patch-policy.md).
  const eventId = patched(OUTCOME_EVENT_IDS_PATCH) ? outcomeEventId(resourceId, outcome) : `${WEBHOOK_EVENT_ID_PREFIX}${uuid4().replace(/-/g, '')}`;
  const input: WebhookEventInput = {
    eventId,
    type,
    createdAt: new Date().toISOString(),
    organizationId,
    resourceId,
    sourceWorkflowId: workflowInfo().workflowId,
  };
  await CancellationScope.nonCancellable(() =>
    startChild(WEBHOOK_EVENT_WORKFLOW_TYPE, {
      workflowId: webhookEventWorkflowId(organizationId, eventId),
      args: [input],
      parentClosePolicy: 'ABANDON',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    }),
  ).catch((error: unknown) => {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  });
}

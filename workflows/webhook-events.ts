// Webhook events as the workflows see them: the contract between the workflows that emit events,
// the webhook event workflow and its activities. Workflow code imports this, so no Node built-ins.

import { CancellationScope, proxyLocalActivities, startChild, uuid4, workflowInfo } from '@temporalio/workflow';

/**
 * Workflows that started before this patch never emitted events; replay keeps them so. The task
 * workflow emits after publishing its outcome, the assessment workflow once the review completes.
 */
export const EMIT_WEBHOOK_EVENTS_PATCH = 'emit-webhook-events';

export const WEBHOOK_EVENT_TYPES = ['ai_task.completed', 'assessment.reviewed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_EVENT_WORKFLOW_TYPE = 'webhookEventWorkflow';
export const WEBHOOK_EVENT_ID_PREFIX = 'evt_';

/** One event: which resource it is about and where its workflow lives, so an activity can read the resource as GET shows it. */
export interface WebhookEventInput {
  eventId: string;
  type: WebhookEventType;
  /** RFC 3339, the emitting workflow's time when the event happened. */
  createdAt: string;
  organizationId: string;
  resourceId: string;
  /** The workflow holding the resource; the task's must have closed before its resource is final. */
  sourceWorkflowId: string;
}

/** How long and how often one delivery is retried; from the worker's configuration, recorded in history. */
export interface WebhookRetrySchedule {
  initialIntervalMs: number;
  maximumIntervalMs: number;
  /** Total time a delivery may take, all attempts included. */
  windowMs: number;
}

/** The exact bytes every endpoint receives (so the signature covers what was sent) and who subscribed. */
export interface PreparedWebhookEvent {
  body: string;
  endpointIds: string[];
  retry: WebhookRetrySchedule;
}

export interface WebhookDeliveryInput {
  eventId: string;
  eventType: WebhookEventType;
  endpointId: string;
  body: string;
  retry: WebhookRetrySchedule;
}

/** `skipped`: the endpoint was deleted or disabled before the attempt. */
export type WebhookDeliveryResult = 'delivered' | 'skipped';

export interface WebhookEventSummary {
  eventId: string;
  delivered: number;
  skipped: number;
  failed: number;
}

export function webhookEventWorkflowId(organizationId: string, eventId: string): string {
  return `webhook-event/${organizationId}/${eventId}`;
}

export interface WebhookSubscriberQuery {
  organizationId: string;
  type: WebhookEventType;
}

export interface WebhookSubscriberActivities {
  hasWebhookSubscribers(query: WebhookSubscriberQuery): Promise<boolean>;
}

// A local activity: one indexed read on the worker, no round trip through the server.
const { hasWebhookSubscribers } = proxyLocalActivities<WebhookSubscriberActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumAttempts: 3 },
});

/**
 * Starts the event's own workflow and returns as soon as it has started: delivery may take days
 * and must neither hold the emitting workflow open nor end with it (ABANDON). The id comes from
 * the event id, so a retried start can never deliver one event twice. Not cancellable: a
 * canceled task still completes (as failed) and its event must go out. Most organisations have no
 * endpoint, so the event workflow is started only for one that has a subscriber; when that cannot
 * be checked, the event goes out anyway and the event workflow finds the endpoints durably.
 */
export async function emitWebhookEvent(type: WebhookEventType, organizationId: string, resourceId: string): Promise<void> {
  const subscribed = await CancellationScope.nonCancellable(() => hasWebhookSubscribers({ organizationId, type })).catch(() => true);
  if (!subscribed) return;
  const eventId = `${WEBHOOK_EVENT_ID_PREFIX}${uuid4().replace(/-/g, '')}`;
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
  );
}

/**
 * Growth of the delay between delivery attempts. With the default 5 s start and 10 h ceiling the
 * delays are about 5 s, 30 s, 3 min, 18 min, 1.8 h, then 10 h: the shape of Standard Webhooks'
 * schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), stretched over the 3-day window.
 */
export const DELIVERY_BACKOFF_COEFFICIENT = 6;

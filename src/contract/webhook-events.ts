// Webhook events: the contract between the workflows that emit events, the webhook event workflow,
// its activities and the API that registers endpoints.

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

/**
 * The one event id of a resource reaching an outcome (`succeeded`, `failed.CANCELED`,
 * `reviewed.approved`): however many runs of its workflow reach that outcome, and whether the
 * workflow or the operator-close sweep announces it, receivers see one `webhook-id`. Resource ids
 * are unique within an organisation, as are the event workflows, whose id includes it.
 */
export function outcomeEventId(resourceId: string, outcome: string): string {
  return `${WEBHOOK_EVENT_ID_PREFIX}${resourceId}.${outcome}`;
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

/**
 * Growth of the delay between delivery attempts. With the default 5 s start and 10 h ceiling the
 * delays are about 5 s, 30 s, 3 min, 18 min, 1.8 h, then 10 h: the shape of Standard Webhooks'
 * schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), stretched over the 3-day window.
 */
export const DELIVERY_BACKOFF_COEFFICIENT = 6;

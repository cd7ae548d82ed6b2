// Webhook events: the contract between the workflows that emit events, the webhook event workflow,
// its activities and the API that registers endpoints.

import type { FailedTask, SucceededTask } from './wire/task';
import type { DeliveredWebhookEventType, ReviewVerdict, WebhookEventType } from './wire/values';

export const WEBHOOK_EVENT_WORKFLOW_TYPE = 'webhookEventWorkflow';
export const WEBHOOK_EVENT_ID_PREFIX = 'evt_';

/** One event: which resource it is about and where its workflow lives, so an activity can read the resource as GET shows it. */
export interface WebhookEventInput {
  eventId: string;
  type: DeliveredWebhookEventType;
  /** RFC 3339, the emitting workflow's time when the event happened. */
  createdAt: string;
  organizationId: string;
  resourceId: string;
  /** The workflow holding the resource; the task's must have closed before its resource is final. */
  sourceWorkflowId: string;
  /**
   * Only this endpoint, when a customer asked for it (a test event, a redelivery); otherwise every
   * enabled endpoint subscribed to the type. Read by the activities alone, so the workflow's
   * commands are the same either way.
   */
  endpointId?: string;
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
  eventType: DeliveredWebhookEventType;
  endpointId: string;
  body: string;
  retry: WebhookRetrySchedule;
}

/** ApplicationFailure types of a delivery after which another attempt cannot help: the endpoint is gone (410) or now points somewhere forbidden. */
export const FINAL_DELIVERY_ERROR_CODES = ['ENDPOINT_GONE', 'ENDPOINT_REFUSED'] as const;
export type FinalDeliveryErrorCode = (typeof FINAL_DELIVERY_ERROR_CODES)[number];

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

/** A task's outcome as its event id names it: `succeeded`, or `failed.` and the error code. */
export function taskOutcomeName(outcome: Pick<SucceededTask, 'status'> | Pick<FailedTask, 'status' | 'error'>): string {
  return outcome.status === 'succeeded' ? outcome.status : `${outcome.status}.${outcome.error.code}`;
}

/** A reviewed assessment's outcome as its event id names it. */
export function reviewOutcomeName(verdict: ReviewVerdict): string {
  return `reviewed.${verdict}`;
}

export const WEBHOOK_EVENT_WORKFLOW_ID_PREFIX = 'webhook-event/';

export function webhookEventWorkflowId(organizationId: string, eventId: string): string {
  return `${WEBHOOK_EVENT_WORKFLOW_ID_PREFIX}${organizationId}/${eventId}`;
}

/** A redelivery of one event to one endpoint, asked for by the customer: its own workflow, beside the event's. */
export function webhookRedeliveryWorkflowId(organizationId: string, eventId: string, redeliveryId: string): string {
  return `${webhookEventWorkflowId(organizationId, eventId)}/redelivery/${redeliveryId}`;
}

export interface WebhookSubscriberQuery {
  organizationId: string;
  type: WebhookEventType;
}

export interface WebhookSubscriberActivities {
  hasWebhookSubscribers(query: WebhookSubscriberQuery): Promise<boolean>;
}

/** The activities of the webhook event workflow; activities/webhooks implements them. */
export interface WebhookActivities extends WebhookSubscriberActivities, OperatorCloseSweepActivities {
  prepareWebhookEvent(input: WebhookEventInput): Promise<PreparedWebhookEvent>;
  deliverWebhook(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult>;
}

/**
 * Growth of the delay between delivery attempts. With the default 5 s start and 10 h ceiling the
 * delays are about 5 s, 30 s, 3 min, 18 min, 1.8 h, then 10 h: the shape of Standard Webhooks'
 * schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), stretched over the 3-day window.
 */
export const DELIVERY_BACKOFF_COEFFICIENT = 6;

/**
 * The operator-close sweep: a run an operator terminated (or whose timeout passed) runs no more
 * workflow code, so it cannot announce its outcome itself. A schedule per namespace starts this
 * workflow every WEBHOOK_SWEEP_INTERVAL; it finds such runs in visibility and starts their
 * outcome's event, whose id makes a repeat find it already started.
 */
export const OPERATOR_CLOSE_SWEEP_WORKFLOW_TYPE = 'operatorCloseSweepWorkflow';
export const OPERATOR_CLOSE_SWEEP_SCHEDULE_ID = 'assay-operator-close-sweep';

export interface OperatorCloseSweepInput {
  /** How far before its own start each sweep looks: its interval plus visibility's lag, so consecutive sweeps overlap. */
  lookbackMs: number;
}

export interface OperatorCloseSweepActivities {
  /** Starts the event of every run closed abnormally since `closedSince` that is still its workflow's current run; returns how many it started. */
  sweepOperatorCloses(input: { closedSince: string }): Promise<number>;
}

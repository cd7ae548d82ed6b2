import type { WebhookEventType } from '../../contract';
import type { StoredWebhookEndpoint, WebhookDeliveryAttempt } from '../../common/storage/webhook-store';

/** An endpoint as a client sees it; the secret appears only in the answers to create and rotate-secret. */
export interface WebhookEndpointResource {
  id: string;
  url: string;
  events: WebhookEventType[];
  description?: string;
  status: 'enabled' | 'disabled';
  disabled_reason?: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookEndpointWithSecret extends WebhookEndpointResource {
  secret: string;
}

export interface WebhookDeliveryResource {
  id: string;
  event_id: string;
  event_type: WebhookEventType;
  attempt: number;
  outcome: 'succeeded' | 'failed';
  http_status?: number;
  error?: string;
  attempted_at: string;
  duration_ms: number;
}

export function toWebhookEndpointResource(endpoint: StoredWebhookEndpoint): WebhookEndpointResource {
  const resource: WebhookEndpointResource = {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    status: endpoint.disabledAt ? 'disabled' : 'enabled',
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
  };
  if (endpoint.description !== null) resource.description = endpoint.description;
  if (endpoint.disabledReason !== null) resource.disabled_reason = endpoint.disabledReason;
  return resource;
}

export function withSecret(endpoint: StoredWebhookEndpoint): WebhookEndpointWithSecret {
  return { ...toWebhookEndpointResource(endpoint), secret: endpoint.secret };
}

export function toWebhookDeliveryResource(attempt: WebhookDeliveryAttempt): WebhookDeliveryResource {
  const resource: WebhookDeliveryResource = {
    id: attempt.id,
    event_id: attempt.eventId,
    event_type: attempt.eventType,
    attempt: attempt.attempt,
    outcome: attempt.outcome,
    attempted_at: attempt.attemptedAt,
    duration_ms: attempt.durationMs,
  };
  if (attempt.httpStatus !== null) resource.http_status = attempt.httpStatus;
  if (attempt.error !== null) resource.error = attempt.error;
  return resource;
}

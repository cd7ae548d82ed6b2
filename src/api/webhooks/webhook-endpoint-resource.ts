import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from '../../contract/wire/webhook';
import type { StoredWebhookEndpoint, WebhookDeliveryAttempt } from '../../common/storage/tables';

// The secret appears only in the answers to create and rotate-secret (withSecret).

export function toWebhookEndpointResource(endpoint: StoredWebhookEndpoint): WebhookEndpoint {
  const resource: WebhookEndpoint = {
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

export function toWebhookDeliveryResource(attempt: WebhookDeliveryAttempt): WebhookDelivery {
  const resource: WebhookDelivery = {
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

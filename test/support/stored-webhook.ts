import type { KeyEnvironment } from '../../src/common/keys/api-key';
import type { WebhookStore } from '../../src/common/storage/webhook-store';
import { newWebhookDeliveryId, newWebhookEndpointId } from '../../src/common/webhooks/webhook-ids';
import { generateWebhookSecret } from '../../src/common/webhooks/webhook-signing';
import { TEST_WEBHOOK_EVENT_TYPE, WEBHOOK_EVENT_ID_PREFIX } from '../../src/contract';

/** An endpoint subscribed to ai_task.completed, written straight into the store as a registration would have, without DNS. */
export async function storeEndpoint(store: WebhookStore, organizationId: string, environment: KeyEnvironment, url = 'https://receiver.example/assay'): Promise<string> {
  const at = new Date().toISOString();
  const endpointId = newWebhookEndpointId();
  await store.create({
    id: endpointId,
    organizationId,
    environment,
    url,
    events: ['ai_task.completed'],
    description: null,
    secret: generateWebhookSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
    disabledAt: null,
    disabledReason: null,
    createdAt: at,
    updatedAt: at,
  });
  return endpointId;
}

/**
 * An endpoint with one recorded delivery attempt, written straight into the store as a
 * registration and a worker would have: what a redelivery needs, without DNS or a worker.
 */
export async function storeEndpointWithDelivery(store: WebhookStore, organizationId: string, environment: KeyEnvironment): Promise<{ endpointId: string; deliveryId: string }> {
  const endpointId = await storeEndpoint(store, organizationId, environment);
  const deliveryId = newWebhookDeliveryId();
  await store.recordDelivery({
    id: deliveryId,
    endpointId,
    eventId: `${WEBHOOK_EVENT_ID_PREFIX}0123456789abcdef`,
    eventType: TEST_WEBHOOK_EVENT_TYPE,
    attempt: 1,
    outcome: 'failed',
    httpStatus: 500,
    error: 'HTTP 500',
    attemptedAt: new Date().toISOString(),
    durationMs: 12,
  });
  return { endpointId, deliveryId };
}

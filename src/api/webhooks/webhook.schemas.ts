import { z } from 'zod';
import type { WebhookDeliveryResource, WebhookEndpointResource, WebhookEndpointWithSecret, WebhookEventQueued } from './webhook-endpoint-resource';
import { TEST_WEBHOOK_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from '../../contract';
import type { SameType } from '../platform/openapi/schemas/same-type';

/** A webhook endpoint as the API returns it; the checks at the end hold these equal to the resource types. */
export const webhookEndpointSchema = z.object({
  id: z.string().meta({ example: 'whe_01JB8ZP0A1B2C3D4E5F6G7H8J9' }),
  url: z.string().meta({ description: 'Where events are POSTed; https (plain http only for sandbox endpoints where allowed).' }),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  description: z.string().optional(),
  status: z.enum(['enabled', 'disabled']),
  disabled_reason: z.string().optional().meta({ description: 'Why deliveries stopped, when disabled.' }),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({
  secret: z.string().meta({ description: 'HMAC-SHA256 signing secret. Shown only here: store it now.' }),
});

export const webhookDeliverySchema = z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: z.enum([...WEBHOOK_EVENT_TYPES, TEST_WEBHOOK_EVENT_TYPE]),
  attempt: z.number().int(),
  outcome: z.enum(['succeeded', 'failed']),
  http_status: z.number().int().optional(),
  error: z.string().optional(),
  attempted_at: z.iso.datetime(),
  duration_ms: z.number(),
});

export const webhookEndpointListSchema = z.object({ data: z.array(webhookEndpointSchema) });
export const webhookDeliveryListSchema = z.object({ data: z.array(webhookDeliverySchema) });

export const webhookEventQueuedSchema = z.object({
  event_id: z.string().meta({ description: 'The webhook-id the receiver gets; its attempts appear in the delivery log under it.' }),
  endpoint_id: z.string(),
});

const _endpointDocumented: SameType<z.output<typeof webhookEndpointSchema>, WebhookEndpointResource> = true;
const _endpointWithSecretDocumented: SameType<z.output<typeof webhookEndpointWithSecretSchema>, WebhookEndpointWithSecret> = true;
const _deliveryDocumented: SameType<z.output<typeof webhookDeliverySchema>, WebhookDeliveryResource> = true;
const _queuedDocumented: SameType<z.output<typeof webhookEventQueuedSchema>, WebhookEventQueued> = true;

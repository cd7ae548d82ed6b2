import { z } from 'zod';
import { singleLine } from './text-patterns';
import { TEST_WEBHOOK_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from './values';

const MAX_URL_LENGTH = 2048;
// An absolute URI by RFC 3986's alphabet, the `format: uri` the document promises; whether it may
// be used (scheme, credentials, where it resolves) is decided after this, with DNS.
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9._~:/?#[\]@!$&'()*+,;=%-]*$/;
const URL_REQUIRED = 'must be an absolute URL such as https://example.com/webhooks';

export const createWebhookEndpointSchema = z
  .object({
    url: z.string({ error: 'required, an https URL' }).max(MAX_URL_LENGTH).regex(ABSOLUTE_URI, URL_REQUIRED).meta({ format: 'uri' }),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}` }), {
        error: `required, a list of event types (${WEBHOOK_EVENT_TYPES.join(', ')})`,
      })
      .min(1, 'must name at least one event type'),
    description: z.string().max(500).check(singleLine()).optional(),
  }, { error: 'must be a JSON object' })
  .strict();

export type CreateWebhookEndpointRequest = z.output<typeof createWebhookEndpointSchema>;

/** A webhook endpoint as the API returns it. */
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

export type WebhookEndpoint = z.output<typeof webhookEndpointSchema>;
/** The answer to a create or a secret rotation: the only times the signing secret is shown. */
export type WebhookEndpointWithSecret = z.output<typeof webhookEndpointWithSecretSchema>;
export type WebhookDelivery = z.output<typeof webhookDeliverySchema>;
/** The answer to a test event or a redelivery: the event is on its way; its attempts appear in the delivery log. */
export type WebhookEventQueued = z.output<typeof webhookEventQueuedSchema>;

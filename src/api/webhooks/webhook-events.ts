import { z } from 'zod';
import { TEST_WEBHOOK_EVENT_TYPE, WEBHOOK_EVENT_ID_PREFIX, type DeliveredWebhookEventType } from '../../contract';
import type { NamedSchema } from '../platform/openapi/api-operation';
import type { DocumentWebhooks } from '../platform/openapi/build-openapi-document';
import { componentRef, type JsonSchema } from '../platform/openapi/json-schema';
import { assessmentResourceSchema, taskResourceSchema } from '../../contract/wire';

/** One event type as the document's `webhooks` section shows it: what is POSTed to a receiver. */
export interface WebhookEventDoc {
  type: DeliveredWebhookEventType;
  summary: string;
  description: string;
  payload: NamedSchema;
}

// The body activities/webhooks/webhook-activities.ts sends: the event and the resource exactly as GET shows it.
function eventSchema<T extends z.ZodType>(type: DeliveredWebhookEventType, data: T) {
  return z.object({
    id: z
      .string()
      .regex(new RegExp(`^${WEBHOOK_EVENT_ID_PREFIX}[0-9a-f]{32}$`))
      .meta({ description: 'The event id, also in webhook-id; the same on every retry, so receivers can drop duplicates.' }),
    type: z.literal(type),
    created_at: z.iso.datetime().meta({ description: 'When the event happened (RFC 3339).' }),
    data: data,
  });
}

export const WEBHOOK_EVENT_DOCS: WebhookEventDoc[] = [
  {
    type: 'ai_task.completed',
    summary: 'An AI task succeeded or failed',
    description: 'Sent once the task is final; data is the task as GET /v1/ai/tasks/{task_id} answers it.',
    payload: { name: 'AiTaskCompletedEvent', schema: eventSchema('ai_task.completed', taskResourceSchema) },
  },
  {
    type: 'assessment.reviewed',
    summary: 'A network assessment was reviewed',
    description: 'Sent once the architecture team completed the review; data is the assessment as GET /v1/network-assessments/{assessment_id} answers it.',
    payload: { name: 'AssessmentReviewedEvent', schema: eventSchema('assessment.reviewed', assessmentResourceSchema) },
  },
  {
    type: TEST_WEBHOOK_EVENT_TYPE,
    summary: 'A test event',
    description: 'Sent to one endpoint when its owner asks for it (POST /v1/webhook-endpoints/{endpoint_id}/test), signed like every event; never sent otherwise.',
    payload: {
      name: 'WebhookTestEvent',
      schema: eventSchema(TEST_WEBHOOK_EVENT_TYPE, z.object({ endpoint_id: z.string(), message: z.string() })),
    },
  },
];

// Standard Webhooks (https://www.standardwebhooks.com): the receiver verifies the signature over
// "<webhook-id>.<webhook-timestamp>.<body>" with the endpoint's secret before trusting the body.
const SIGNATURE_HEADERS: JsonSchema[] = [
  { name: 'webhook-id', description: 'The event id; the same on every retry of this event.', schema: { type: 'string' } },
  { name: 'webhook-timestamp', description: 'Unix seconds when this attempt was signed; refuse old ones to stop replays.', schema: { type: 'string', pattern: '^[0-9]+$' } },
  {
    name: 'webhook-signature',
    description: '`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per valid secret, space separated (two during a secret rotation).',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
  },
].map((header) => ({ ...header, in: 'header', required: true }));

/** The OpenAPI 3.1 `webhooks` section: one POST per event type, with its signature headers. */
function webhookObjects(events: WebhookEventDoc[]): Record<string, Record<string, JsonSchema>> {
  return Object.fromEntries(
    events.map((event) => [
      event.type,
      {
        post: {
          operationId: `receive_${event.type.replace('.', '_')}`,
          tags: ['Webhooks'],
          summary: event.summary,
          description: event.description,
          security: [],
          parameters: SIGNATURE_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: componentRef(event.payload.name) } } },
          responses: {
            '2XX': { description: 'Delivered: any 2xx ends the retries.' },
            '410': { description: 'Gone: the endpoint is disabled and no further events are sent to it.' },
            default: { description: 'Anything else (or no answer within the timeout) is retried with backoff for up to 3 days.' },
          },
        },
      },
    ]),
  );
}


/** What the OpenAPI document shows of the events Assay POSTs to receivers: their bodies' schemas and the `webhooks` section. */
export const WEBHOOKS_DOC: DocumentWebhooks = { payloads: WEBHOOK_EVENT_DOCS.map((event) => event.payload), objects: webhookObjects(WEBHOOK_EVENT_DOCS) };

import { z } from 'zod';
import { WEBHOOK_DELIVERY_ID_PATTERN, WEBHOOK_ENDPOINT_ID_PATTERN } from '../../common/webhooks/webhook-ids';
import type { ApiOperation, ParameterDoc } from '../platform/openapi/api-operation';
import { oneResourceOperation } from '../platform/openapi/one-resource-operation';
import { LOCATION_HEADER, RATE_LIMIT_HEADERS } from '../platform/openapi/common-parameters';
import {
  createWebhookEndpointSchema,
  webhookDeliveryListSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
  webhookEventQueuedSchema,
} from '../../contract/wire';

const TAG = 'Webhooks';
// Any other value is 404: no endpoint can have it.
const ENDPOINT_ID: ParameterDoc = {
  name: 'endpoint_id',
  description: 'The id returned on registration: `we_` and a ULID.',
  schema: z.string().regex(new RegExp(WEBHOOK_ENDPOINT_ID_PATTERN)),
  example: 'we_01JB8ZP0A1B2C3D4E5F6G7H8J9',
};
const DELIVERY_ID: ParameterDoc = {
  name: 'delivery_id',
  description: 'An attempt from the delivery log: `wd_` and a ULID.',
  schema: z.string().regex(new RegExp(WEBHOOK_DELIVERY_ID_PATTERN)),
  example: 'wd_01JB8ZQ1A2B3C4D5E6F7G8H9J0',
};
const EVENT_QUEUED = { name: 'WebhookEventQueued', schema: webhookEventQueuedSchema };
const ENDPOINT_WITH_SECRET = { name: 'WebhookEndpointWithSecret', schema: webhookEndpointWithSecretSchema };
const AT = '2025-06-02T09:15:27.114Z';

const endpoint = {
  id: 'we_01JB8ZP0A1B2C3D4E5F6G7H8J9',
  url: 'https://example.com/assay-events',
  events: ['ai_task.completed'],
  status: 'enabled',
  created_at: AT,
  updated_at: AT,
};
const withSecret = { ...endpoint, secret: 'whsec_3q2+7w…' };

/** The webhook endpoint routes: WebhooksController serves them, the OpenAPI document describes them. */
export const WEBHOOK_ROUTES = {
  create: {
    method: 'post',
    path: '/v1/webhook-endpoints',
    operationId: 'createWebhookEndpoint',
    tag: TAG,
    summary: 'Register a webhook endpoint',
    description: 'Events of the chosen types are POSTed to the URL, signed with HMAC-SHA256 using the secret in this answer, and retried durably until delivered.',
    requestBody: { name: 'CreateWebhookEndpointRequest', schema: createWebhookEndpointSchema, example: { url: 'https://example.com/assay-events', events: ['ai_task.completed'] } },
    responses: [{ status: 201, description: 'Registered: the endpoint and its signing secret.', body: ENDPOINT_WITH_SECRET, example: withSecret, headers: { ...LOCATION_HEADER, ...RATE_LIMIT_HEADERS } }],
    errors: ['INVALID_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'ENCRYPTION_REQUIRED'],
  },
  list: {
    method: 'get',
    path: '/v1/webhook-endpoints',
    operationId: 'listWebhookEndpoints',
    tag: TAG,
    summary: 'List webhook endpoints',
    description: "The caller's endpoints in its environment, without their secrets.",
    responses: [{ status: 200, description: 'The endpoints.', body: { name: 'WebhookEndpointList', schema: webhookEndpointListSchema }, example: { data: [endpoint] } }],
    errors: ['SERVICE_UNAVAILABLE'],
  },
  get: {
    method: 'get',
    path: '/v1/webhook-endpoints/{endpoint_id}',
    operationId: 'getWebhookEndpoint',
    tag: TAG,
    summary: 'Get a webhook endpoint',
    pathParameters: [ENDPOINT_ID],
    responses: [{ status: 200, description: 'The endpoint, without its secret.', body: { name: 'WebhookEndpoint', schema: webhookEndpointSchema }, example: endpoint }],
    errors: ['NOT_FOUND', 'SERVICE_UNAVAILABLE'],
  },
  delete: {
    method: 'delete',
    path: '/v1/webhook-endpoints/{endpoint_id}',
    operationId: 'deleteWebhookEndpoint',
    tag: TAG,
    summary: 'Delete a webhook endpoint',
    description: 'No further events are delivered to it.',
    pathParameters: [ENDPOINT_ID],
    responses: [{ status: 204, description: 'Deleted.' }],
    errors: ['NOT_FOUND', 'SERVICE_UNAVAILABLE'],
  },
  rotateSecret: oneResourceOperation({
    method: 'post',
    path: '/v1/webhook-endpoints/{endpoint_id}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    tag: TAG,
    summary: 'Rotate the signing secret',
    description: 'Returns the new secret once; deliveries are signed with it from now on. Needs no body.',
    id: ENDPOINT_ID,
    answer: { description: 'The endpoint and its new secret.', body: ENDPOINT_WITH_SECRET, example: withSecret },
  }),
  deliveries: {
    method: 'get',
    path: '/v1/webhook-endpoints/{endpoint_id}/deliveries',
    operationId: 'listWebhookDeliveries',
    tag: TAG,
    summary: "List an endpoint's delivery attempts",
    description: 'Recent attempts, each with its outcome and HTTP status, to debug a receiver.',
    pathParameters: [ENDPOINT_ID],
    responses: [
      {
        status: 200,
        description: 'The delivery attempts.',
        body: { name: 'WebhookDeliveryList', schema: webhookDeliveryListSchema },
        example: { data: [{ id: 'wd_01JB8ZQ1A2B3C4D5E6F7G8H9J0', event_id: 'evt_01JB8ZQ0A2B3C4D5E6F7G8H9J0', event_type: 'ai_task.completed', attempt: 1, outcome: 'succeeded', http_status: 200, attempted_at: AT, duration_ms: 84 }] },
      },
    ],
    errors: ['NOT_FOUND', 'SERVICE_UNAVAILABLE'],
  },
  sendTestEvent: {
    method: 'post',
    path: '/v1/webhook-endpoints/{endpoint_id}/test',
    operationId: 'sendWebhookTestEvent',
    tag: TAG,
    summary: 'Send a test event to the endpoint',
    description: 'A `webhook.test` event, signed and retried like every event, to this endpoint alone; watch its attempts in the delivery log. Counts against the create rate limit. Needs no body.',
    pathParameters: [ENDPOINT_ID],
    responses: [{ status: 202, description: 'Started: the event id the receiver will see.', body: EVENT_QUEUED, example: { event_id: 'evt_5f0c2a9e4b1d4c8fa3e7b6d5c4a3b2c1', endpoint_id: endpoint.id }, headers: RATE_LIMIT_HEADERS }],
    errors: ['NOT_FOUND', 'ENDPOINT_DISABLED', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'ENCRYPTION_REQUIRED'],
  },
  redeliver: {
    method: 'post',
    path: '/v1/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/redeliver',
    operationId: 'redeliverWebhookEvent',
    tag: TAG,
    summary: 'Send the event of a recorded attempt again',
    description: 'The same event (same webhook-id and body) to this endpoint, retried like a new one; receivers that already have it drop it by its id. Counts against the create rate limit. Needs no body.',
    pathParameters: [ENDPOINT_ID, DELIVERY_ID],
    responses: [{ status: 202, description: 'Started.', body: EVENT_QUEUED, headers: RATE_LIMIT_HEADERS }],
    errors: ['NOT_FOUND', 'ENDPOINT_DISABLED', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'ENCRYPTION_REQUIRED'],
  },
  enable: {
    method: 'post',
    path: '/v1/webhook-endpoints/{endpoint_id}/enable',
    operationId: 'enableWebhookEndpoint',
    tag: TAG,
    summary: 'Enable an endpoint disabled after a 410',
    description: 'Events are delivered to it again from now on, signed with the secret it had (events missed meanwhile can be redelivered from the log). An enabled endpoint is answered as it is. Needs no body.',
    pathParameters: [ENDPOINT_ID],
    responses: [{ status: 200, description: 'The endpoint, enabled.', body: { name: 'WebhookEndpoint', schema: webhookEndpointSchema }, example: endpoint }],
    errors: ['NOT_FOUND', 'SERVICE_UNAVAILABLE'],
  },
} satisfies Record<string, ApiOperation>;

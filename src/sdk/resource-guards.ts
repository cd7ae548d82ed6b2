import { AssayApiError } from './errors';
import type { HttpResponse } from './http-transport';
import { ASSESSMENT_STATUSES, BATCH_STATUSES, TASK_STATUSES } from '../contract/wire/values';
import type { Assessment, AssessmentStatus, Batch, BatchCounts, BatchStatus, Model, Task, UsageReport, TaskStatus, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret, WebhookEventQueued } from './resources';

const BATCH_COUNTS: readonly (keyof BatchCounts)[] = ['total', 'admitted', 'succeeded', 'failed'];

/** The body as a Task, checked as far as the client relies on it: id, status and the fields each status brings. */
export function taskFrom(response: HttpResponse): Task {
  const body = recordOrEmpty(response.body);
  const status = body.status as TaskStatus;
  const valid =
    typeof body.id === 'string' &&
    TASK_STATUSES.includes(status) &&
    (status !== 'succeeded' || typeof (body.output as { summary?: unknown } | undefined)?.summary === 'string') &&
    (status !== 'failed' || typeof (body.error as { code?: unknown } | undefined)?.code === 'string');
  if (!valid) throw unexpectedBody(response, 'task');
  return body as unknown as Task;
}

/** The body as a Batch, checked as far as the client relies on it: id, status and every count (progress is read from them). */
export function batchFrom(response: HttpResponse): Batch {
  const body = recordOrEmpty(response.body);
  const counts = recordOrEmpty(body.counts);
  const valid = typeof body.id === 'string' && BATCH_STATUSES.includes(body.status as BatchStatus) && BATCH_COUNTS.every((name) => typeof counts[name] === 'number');
  if (!valid) throw unexpectedBody(response, 'batch');
  return body as unknown as Batch;
}

/** The `data` of GET /v1/models, each entry checked for its name. */
export function modelsFrom(response: HttpResponse): Model[] {
  const data = recordOrEmpty(response.body).data;
  if (!Array.isArray(data) || !data.every((model) => typeof recordOrEmpty(model).name === 'string')) throw unexpectedBody(response, 'model list');
  return data as Model[];
}

export function usageReportFrom(response: HttpResponse): UsageReport {
  const body = recordOrEmpty(response.body);
  if (typeof body.from !== 'string' || typeof body.to !== 'string' || !Array.isArray(body.data)) throw unexpectedBody(response, 'usage report');
  return body as unknown as UsageReport;
}

export function assessmentFrom(response: HttpResponse): Assessment {
  const body = recordOrEmpty(response.body);
  const valid = typeof body.assessment_id === 'string' && ASSESSMENT_STATUSES.includes(body.status as AssessmentStatus);
  if (!valid) throw unexpectedBody(response, 'assessment');
  return body as unknown as Assessment;
}

export function webhookEndpointFrom(response: HttpResponse): WebhookEndpoint {
  const body = recordOrEmpty(response.body);
  const valid = typeof body.id === 'string' && typeof body.url === 'string' && Array.isArray(body.events) && (body.status === 'enabled' || body.status === 'disabled');
  if (!valid) throw unexpectedBody(response, 'webhook endpoint');
  return body as unknown as WebhookEndpoint;
}

export function webhookEndpointWithSecretFrom(response: HttpResponse): WebhookEndpointWithSecret {
  const endpoint = webhookEndpointFrom(response);
  if (typeof (endpoint as Partial<WebhookEndpointWithSecret>).secret !== 'string') throw unexpectedBody(response, 'webhook endpoint with its secret');
  return endpoint as WebhookEndpointWithSecret;
}

export function webhookDeliveryFrom(response: HttpResponse): WebhookDelivery {
  const body = recordOrEmpty(response.body);
  const valid = typeof body.id === 'string' && typeof body.event_id === 'string' && (body.outcome === 'succeeded' || body.outcome === 'failed');
  if (!valid) throw unexpectedBody(response, 'webhook delivery');
  return body as unknown as WebhookDelivery;
}

export function webhookEventQueuedFrom(response: HttpResponse): WebhookEventQueued {
  const body = recordOrEmpty(response.body);
  if (typeof body.event_id !== 'string' || typeof body.endpoint_id !== 'string') throw unexpectedBody(response, 'queued webhook event');
  return body as unknown as WebhookEventQueued;
}

function recordOrEmpty(body: unknown): Partial<Record<string, unknown>> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

function unexpectedBody(response: HttpResponse, what: string): AssayApiError {
  return new AssayApiError({
    status: response.status,
    code: 'UNEXPECTED_RESPONSE',
    message: `The response body is not ${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what} resource`,
    request_id: response.headers.get('x-request-id') ?? undefined,
  });
}

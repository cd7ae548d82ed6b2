import { AssayApiError, AssayArgumentError } from './errors';
import type { HttpRequest, HttpResponse } from './http-transport';
import { webhookDeliveryFrom, webhookEndpointFrom, webhookEndpointWithSecretFrom, webhookEventQueuedFrom } from './resource-guards';
import type { CreateWebhookEndpointRequest, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret, WebhookEventQueued } from './resources';

const ENDPOINTS_PATH = 'v1/webhook-endpoints';

export interface WebhookRequestOptions {
  signal?: AbortSignal;
  requestTimeoutMs?: number;
}

type Send = (request: Omit<HttpRequest, 'timeoutMs'> & { timeoutMs?: number }) => Promise<HttpResponse>;

/**
 * The organisation's webhook endpoints (`client.webhooks`). Registration is not retried: it has no
 * Idempotency-Key, so a retry after a lost answer could register the URL twice.
 */
export class WebhookEndpoints {
  constructor(private readonly send: Send) {}

  /** Registers an endpoint; the answer holds its signing secret, shown only here and on rotation. */
  async create(request: CreateWebhookEndpointRequest, options: WebhookRequestOptions = {}): Promise<WebhookEndpointWithSecret> {
    return webhookEndpointWithSecretFrom(await this.send({ method: 'POST', path: ENDPOINTS_PATH, body: request, ...timing(options) }));
  }

  async list(options: WebhookRequestOptions = {}): Promise<WebhookEndpoint[]> {
    return dataOf(await this.send({ method: 'GET', path: ENDPOINTS_PATH, ...timing(options) }), webhookEndpointFrom);
  }

  async get(id: string, options: WebhookRequestOptions = {}): Promise<WebhookEndpoint> {
    return webhookEndpointFrom(await this.send({ method: 'GET', path: endpointPath(id), ...timing(options) }));
  }

  /** Deletes the endpoint; deliveries not yet attempted are skipped. */
  async delete(id: string, options: WebhookRequestOptions = {}): Promise<void> {
    await this.send({ method: 'DELETE', path: endpointPath(id), ...timing(options) });
  }

  /** A new signing secret; the old one keeps signing beside it for 24 hours so receivers can switch. */
  async rotateSecret(id: string, options: WebhookRequestOptions = {}): Promise<WebhookEndpointWithSecret> {
    return webhookEndpointWithSecretFrom(await this.send({ method: 'POST', path: `${endpointPath(id)}/rotate-secret`, ...timing(options) }));
  }

  /** The latest delivery attempts to this endpoint, newest first. */
  async deliveries(id: string, options: WebhookRequestOptions = {}): Promise<WebhookDelivery[]> {
    return dataOf(await this.send({ method: 'GET', path: `${endpointPath(id)}/deliveries`, ...timing(options) }), webhookDeliveryFrom);
  }

  /** Sends a signed `webhook.test` event to this endpoint alone; its attempts appear in `deliveries`. Not retried by the client (each call sends one). */
  async sendTestEvent(id: string, options: WebhookRequestOptions = {}): Promise<WebhookEventQueued> {
    return webhookEventQueuedFrom(await this.send({ method: 'POST', path: `${endpointPath(id)}/test`, ...timing(options) }));
  }

  /** Sends the event of one recorded attempt again, with the same webhook-id and body. */
  async redeliver(id: string, deliveryId: string, options: WebhookRequestOptions = {}): Promise<WebhookEventQueued> {
    const path = `${endpointPath(id)}/deliveries/${encodeURIComponent(nonEmpty(deliveryId))}/redeliver`;
    return webhookEventQueuedFrom(await this.send({ method: 'POST', path, ...timing(options) }));
  }

  /** Takes an endpoint disabled after a 410 back into service, keeping its secret. */
  async enable(id: string, options: WebhookRequestOptions = {}): Promise<WebhookEndpoint> {
    return webhookEndpointFrom(await this.send({ method: 'POST', path: `${endpointPath(id)}/enable`, ...timing(options) }));
  }
}

function endpointPath(id: string): string {
  return `${ENDPOINTS_PATH}/${encodeURIComponent(nonEmpty(id))}`;
}

function nonEmpty(id: string): string {
  if (typeof id !== 'string' || id.trim() === '') throw new AssayArgumentError('The id must be a non-empty string');
  return id;
}

function timing(options: WebhookRequestOptions): { signal?: AbortSignal; timeoutMs?: number } {
  return { signal: options.signal, timeoutMs: options.requestTimeoutMs };
}

function dataOf<T>(response: HttpResponse, item: (itemResponse: HttpResponse) => T): T[] {
  const data = (response.body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data)) {
    throw new AssayApiError({ status: response.status, code: 'UNEXPECTED_RESPONSE', message: 'The response body is not a list', request_id: response.headers.get('x-request-id') ?? undefined });
  }
  return data.map((element) => item({ ...response, body: element }));
}

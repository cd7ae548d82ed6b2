import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_SERVER_ADDRESS, ATTR_SERVER_PORT } from '@opentelemetry/semantic-conventions';
import type { VettedTarget } from '../../src/common/webhooks/webhook-url-policy';

/** Per attempt, connection to last byte; a receiver should answer fast and do its work afterwards. */
export const DELIVERY_ATTEMPT_TIMEOUT_MS = 15_000;

/** Only the start of a receiver's answer is read; the body is never stored. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface WebhookResponse {
  status: number;
  retryAfter: string | null;
}

export interface WebhookRequest {
  target: VettedTarget;
  headers: Record<string, string>;
  body: string;
  signal?: AbortSignal;
}

/**
 * POSTs one delivery to the vetted address, with the URL's Host header and TLS server name, so a
 * DNS answer that changed since the check cannot redirect it. Redirects are never followed (a 3xx
 * is just a failed attempt). With tracing on, the attempt is a CLIENT span (child of the delivery
 * activity's) and the request carries its W3C traceparent; with it off, both are no-ops.
 */
export async function sendWebhook(request: WebhookRequest): Promise<WebhookResponse> {
  const { url } = request.target;
  const attributes = { [ATTR_HTTP_REQUEST_METHOD]: 'POST', [ATTR_SERVER_ADDRESS]: url.hostname, [ATTR_SERVER_PORT]: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
  return trace.getTracer('assay-webhooks').startActiveSpan('POST', { kind: SpanKind.CLIENT, attributes }, async (span) => {
    const traceHeaders: Record<string, string> = {};
    propagation.inject(context.active(), traceHeaders);
    try {
      const response = await post({ ...request, headers: { ...request.headers, ...traceHeaders } });
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, response.status);
      if (response.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
      return response;
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'request failed' });
      throw error;
    } finally {
      span.end();
    }
  });
}

function post(request: WebhookRequest): Promise<WebhookResponse> {
  const { url, address } = request.target;
  // Dials the vetted address whatever name the URL holds.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  const transport = url.protocol === 'https:' ? https : http;
  const signal = request.signal ? AbortSignal.any([request.signal, AbortSignal.timeout(DELIVERY_ATTEMPT_TIMEOUT_MS)]) : AbortSignal.timeout(DELIVERY_ATTEMPT_TIMEOUT_MS);
  return new Promise((resolve, reject) => {
    const outgoing = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(request.body)), 'user-agent': 'Assay-Webhooks/1' },
        lookup: pinned,
        signal,
      },
      (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        const settle = () => resolve({ status: response.statusCode ?? 0, retryAfter: headerValue(response.headers['retry-after']) });
        response.on('end', settle);
        response.on('close', settle);
        response.on('error', settle);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

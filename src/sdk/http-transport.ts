import { throwIfAborted } from './abortable-delay';
import { AssayApiError, AssayError, AssayNetworkError, RequestTimeoutError } from './errors';
import { parseRetryAfter } from './retry-after';

/** The subset of the WHATWG fetch the client calls; inject one to test or to add a proxy. */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>;

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Relative to the base URL, without a leading slash: `v1/ai/tasks`. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

interface RawResponse {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
}

/** One HTTP exchange, no retries: every outcome becomes a parsed body or one of the SDK's errors. */
export class HttpTransport {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly fetchFn: FetchFunction,
  ) {}

  async send(request: HttpRequest): Promise<HttpResponse> {
    const url = new URL(request.path, this.baseUrl).href;
    const raw = await this.exchange(url, request);
    return toHttpResponse(raw);
  }

  private async exchange(url: string, request: HttpRequest): Promise<RawResponse> {
    throwIfAborted(request.signal);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, request.timeoutMs);
    const forwardAbort = (): void => controller.abort(request.signal?.reason);
    request.signal?.addEventListener('abort', forwardAbort, { once: true });
    try {
      const response = await this.fetchFn(url, {
        method: request.method,
        headers: this.headersFor(request),
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: controller.signal,
      });
      // The body is read under the same timeout: a server that sends headers and then stalls is no better.
      const text = await response.text();
      return { status: response.status, statusText: response.statusText, headers: response.headers, text };
    } catch (error) {
      throwIfAborted(request.signal);
      if (timedOut) throw new RequestTimeoutError(request.method, url, request.timeoutMs);
      if (error instanceof AssayError) throw error;
      throw new AssayNetworkError(request.method, url, error);
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', forwardAbort);
    }
  }

  private headersFor(request: HttpRequest): Record<string, string> {
    return {
      accept: 'application/json',
      authorization: `Bearer ${this.apiKey}`,
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...request.headers,
    };
  }
}

function toHttpResponse(raw: RawResponse): HttpResponse {
  const requestId = raw.headers.get('x-request-id') ?? undefined;
  const body = parseJson(raw.text);
  if (raw.status >= 200 && raw.status < 300) {
    if (body === undefined && raw.status !== 204) {
      throw new AssayApiError({ status: raw.status, code: 'UNEXPECTED_RESPONSE', message: 'The response body is not JSON', request_id: requestId });
    }
    return { status: raw.status, headers: raw.headers, body };
  }
  const retryAfterMs = parseRetryAfter(raw.headers.get('retry-after'), Date.now());
  const error = errorFields(body);
  if (error) {
    throw new AssayApiError({ status: raw.status, ...error, request_id: error.request_id ?? requestId, retryAfterMs });
  }
  const statusLine = `${raw.status}${raw.statusText ? ` ${raw.statusText}` : ''}`;
  throw new AssayApiError({
    status: raw.status,
    code: 'UNEXPECTED_RESPONSE',
    message: `HTTP ${statusLine} without an Assay error body`,
    request_id: requestId,
    retryAfterMs,
  });
}

/** The `{"error": {code, message, request_id}}` body every non-2xx answer of the service carries. */
function errorFields(body: unknown): { code: string; message: string; request_id?: string } | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  const { code, message, request_id } = body.error;
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  return { code, message, request_id: typeof request_id === 'string' ? request_id : undefined };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

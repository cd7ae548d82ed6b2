import { AssayClient, type AssayClientOptions, type FetchFunction } from '../../src/sdk';

/** The API key every client of the fake presents. */
export const FAKE_KEY = 'assay_test_abc';

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  /** Date.now() when the request was sent; fake timers make it exact. */
  at: number;
}

/** What a scripted server answers: a response, a thrown network error, or NEVER to hang until aborted. */
export type FakeAnswer = FakeResponse | typeof NEVER;

export interface FakeResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const NEVER = Symbol('never answers');

/**
 * A fetch that answers from a script, records every request, and honours the abort signal.
 * It returns a minimal Response-shaped object so nothing depends on timers jest has faked.
 */
export function fakeFetch(answer: (request: RecordedRequest, index: number) => FakeAnswer | Promise<FakeAnswer>): {
  fetch: FetchFunction;
  requests: RecordedRequest[];
} {
  const requests: RecordedRequest[] = [];
  const fetch: FetchFunction = (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const request: RecordedRequest = {
        url,
        method: init.method ?? 'GET',
        headers: headersObject(new Headers(init.headers)),
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
        at: Date.now(),
      };
      const index = requests.push(request) - 1;
      init.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
      Promise.resolve()
        .then(() => answer(request, index))
        .then((result) => {
          if (result !== NEVER) resolve(toResponse(result));
        }, reject);
    });
  return { fetch, requests };
}

/** A client of the fake at http://assay.test, presenting FAKE_KEY. */
export function clientWith(fetch: FetchFunction, options: AssayClientOptions = {}): AssayClient {
  return new AssayClient({ baseUrl: 'http://assay.test', apiKey: FAKE_KEY, fetch, ...options });
}

/**
 * Fakes the clock for each test of the file, so the client's delays pass only as the test
 * advances them, and restores afterwards whatever a test mocked (Math.random, for the jitter).
 */
export function useFakeClock(): void {
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
  });

  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });
}

/** Runs the fake clock until the promise settles and returns how it settled. */
export async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await jest.runAllTimersAsync();
  return outcome;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): FakeResponse {
  return { status, body, headers: { 'x-request-id': 'req_test', ...headers } };
}

export function apiError(status: number, code: string, headers: Record<string, string> = {}): FakeResponse {
  return json(status, { error: { code, message: `${code} from the fake`, request_id: `req_${status}` } }, headers);
}

export function networkError(): TypeError {
  return new TypeError('fetch failed', { cause: new Error('ECONNRESET') });
}

export function task(status: 'queued' | 'running' | 'succeeded' | 'failed', id = 'task_01'): Record<string, unknown> {
  const base = { id, task_type: 'summarize', status, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:01Z' };
  if (status === 'succeeded') return { ...base, output: { summary: 'A short summary.' } };
  if (status === 'failed') return { ...base, error: { code: 'INPUT_REJECTED', message: 'The provider rejected the input' } };
  return base;
}

export function assessment(status: 'submitted' | 'under_review' | 'completed', id = 'asmt_01'): Record<string, unknown> {
  const base = { assessment_id: id, status, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:01Z' };
  return status === 'completed' ? { ...base, review: { verdict: 'approved', notes: 'Fine.' } } : base;
}

function headersObject(headers: Headers): Record<string, string> {
  const result: Record<string, string> = {};
  headers.forEach((value, name) => {
    result[name] = value;
  });
  return result;
}

function toResponse(answer: FakeResponse): Response {
  const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  const response = {
    status: answer.status,
    statusText: '',
    ok: answer.status >= 200 && answer.status < 300,
    headers: new Headers(answer.headers),
    text: () => Promise.resolve(text),
  };
  return response as unknown as Response;
}

import {
  AssayApiError,
  AssayArgumentError,
  type AssayClientOptions,
  AssayNetworkError,
  RequestTimeoutError,
} from '../../../src/sdk';
import { NEVER, apiError, assessment, clientWith, fakeFetch, json, networkError, settle, task, useFakeClock } from '../../support/client-fake-fetch';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SUMMARIZE = { task_type: 'summarize', input: { text: 'Some text.' } } as const;

useFakeClock();

describe('what a create sends', () => {
  test('a POST with bearer key, JSON content type and a UUID Idempotency-Key', async () => {
    const { fetch, requests } = fakeFetch(() => json(202, task('queued')));

    await settle(clientWith(fetch).createTask(SUMMARIZE));

    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: 'http://assay.test/v1/ai/tasks',
      body: SUMMARIZE,
      headers: { authorization: 'Bearer assay_test_abc', 'content-type': 'application/json' },
    });
    expect(requests[0].headers['idempotency-key']).toMatch(UUID);
  });

  test('each create call gets its own key', async () => {
    const { fetch, requests } = fakeFetch(() => json(202, task('queued')));
    const client = clientWith(fetch);

    await settle(Promise.all([client.createTask(SUMMARIZE), client.createTask(SUMMARIZE)]));

    expect(requests[0].headers['idempotency-key']).not.toBe(requests[1].headers['idempotency-key']);
  });

  test("the caller's key is used when given", async () => {
    const { fetch, requests } = fakeFetch(() => json(202, task('queued')));

    await settle(clientWith(fetch).createTask(SUMMARIZE, { idempotencyKey: 'order-42' }));

    expect(requests[0].headers['idempotency-key']).toBe('order-42');
  });

  test('a key the service would refuse is refused before sending', async () => {
    const { fetch, requests } = fakeFetch(() => json(202, task('queued')));

    const { error } = await settle(clientWith(fetch).createTask(SUMMARIZE, { idempotencyKey: 'has\nnewline' }));

    expect(error).toBeInstanceOf(AssayArgumentError);
    expect(requests).toHaveLength(0);
  });
});

describe('retries reuse the Idempotency-Key', () => {
  test('after a network error', async () => {
    const { fetch, requests } = fakeFetch((_request, index) => {
      if (index === 0) throw networkError();
      return json(202, task('queued'));
    });

    const { value } = await settle(clientWith(fetch).createTask(SUMMARIZE));

    expect(value).toMatchObject({ id: 'task_01', status: 'queued' });
    expect(requests).toHaveLength(2);
    expect(requests[1].headers['idempotency-key']).toBe(requests[0].headers['idempotency-key']);
    expect(requests[1].body).toEqual(requests[0].body);
  });

  test('after a 503', async () => {
    const { fetch, requests } = fakeFetch((_request, index) =>
      index === 0 ? apiError(503, 'SERVICE_UNAVAILABLE') : json(202, task('queued')),
    );

    const { value } = await settle(clientWith(fetch).createTask(SUMMARIZE));

    expect(value).toMatchObject({ id: 'task_01' });
    expect(new Set(requests.map((request) => request.headers['idempotency-key'])).size).toBe(1);
  });

  test('after a request timeout, having cancelled the hung request', async () => {
    const signals: AbortSignal[] = [];
    const { fetch: answering, requests } = fakeFetch((_request, index) => (index === 0 ? NEVER : json(202, task('queued'))));
    const fetch: AssayClientOptions['fetch'] = (url, init) => {
      signals.push(init.signal as AbortSignal);
      return answering(url, init);
    };

    const { value } = await settle(clientWith(fetch, { requestTimeoutMs: 1_000 }).createTask(SUMMARIZE));

    expect(value).toMatchObject({ id: 'task_01' });
    expect(signals[0].aborted).toBe(true);
    expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(1_000);
    expect(requests[1].headers['idempotency-key']).toBe(requests[0].headers['idempotency-key']);
  });

  test('after a 429, waiting out Retry-After first', async () => {
    const { fetch, requests } = fakeFetch((_request, index) =>
      index === 0 ? apiError(429, 'RATE_LIMITED', { 'retry-after': '3' }) : json(202, task('queued')),
    );
    const creating = clientWith(fetch).createTask(SUMMARIZE);

    await jest.advanceTimersByTimeAsync(2_999);
    expect(requests).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(2);
    await expect(creating).resolves.toMatchObject({ id: 'task_01' });
    expect(requests[1].headers['idempotency-key']).toBe(requests[0].headers['idempotency-key']);
  });

  test('for assessments too', async () => {
    const { fetch, requests } = fakeFetch((_request, index) => {
      if (index === 0) throw networkError();
      return json(202, assessment('submitted'));
    });
    const request = { name: 'shop', context: 'web shop', components: [], links: [] };

    const { value } = await settle(clientWith(fetch).createAssessment(request));

    expect(value).toMatchObject({ assessment_id: 'asmt_01', status: 'submitted' });
    expect(requests[0].url).toBe('http://assay.test/v1/network-assessments');
    expect(requests[1].headers['idempotency-key']).toBe(requests[0].headers['idempotency-key']);
  });
});

describe('retries are bounded', () => {
  test('a 4xx is not retried', async () => {
    const { fetch, requests } = fakeFetch(() => apiError(400, 'INVALID_REQUEST'));

    const { error } = await settle(clientWith(fetch).createTask(SUMMARIZE));

    expect(requests).toHaveLength(1);
    expect(error).toBeInstanceOf(AssayApiError);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_REQUEST', request_id: 'req_400' });
  });

  test('after maxRetries the last error is thrown', async () => {
    const { fetch, requests } = fakeFetch(() => {
      throw networkError();
    });

    const { error } = await settle(clientWith(fetch).createTask(SUMMARIZE));

    expect(requests).toHaveLength(4);
    expect(error).toBeInstanceOf(AssayNetworkError);
  });

  test('backoff doubles from the base delay, never below half of each step', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0);
    const { fetch, requests } = fakeFetch(() => apiError(500, 'INTERNAL'));

    await settle(clientWith(fetch).createTask(SUMMARIZE));

    const waits = requests.slice(1).map((request, index) => request.at - requests[index].at);
    expect(waits).toEqual([250, 500, 1_000]);
  });

  test('a Retry-After longer than maxRetryAfterMs is not waited out', async () => {
    const { fetch, requests } = fakeFetch(() => apiError(429, 'RATE_LIMITED', { 'retry-after': '120' }));

    const { error } = await settle(clientWith(fetch).createTask(SUMMARIZE));

    expect(requests).toHaveLength(1);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 120_000 });
  });

  test('maxRetries 0 sends once', async () => {
    const { fetch, requests } = fakeFetch(() => apiError(503, 'SERVICE_UNAVAILABLE'));

    await settle(clientWith(fetch, { retry: { maxRetries: 0 } }).createTask(SUMMARIZE));

    expect(requests).toHaveLength(1);
  });

  test('the last timeout is reported as a RequestTimeoutError', async () => {
    const { fetch } = fakeFetch(() => NEVER);

    const { error } = await settle(clientWith(fetch, { requestTimeoutMs: 500, retry: { maxRetries: 1 } }).createTask(SUMMARIZE));

    expect(error).toBeInstanceOf(RequestTimeoutError);
  });

  test('aborting stops the retries', async () => {
    const { fetch, requests } = fakeFetch(() => apiError(503, 'SERVICE_UNAVAILABLE'));
    const controller = new AbortController();
    const outcome = clientWith(fetch)
      .createTask(SUMMARIZE, { signal: controller.signal })
      .catch((error: unknown) => error);

    await jest.advanceTimersByTimeAsync(0);
    controller.abort();
    await jest.runAllTimersAsync();

    await expect(outcome).resolves.toMatchObject({ name: 'AbortError' });
    expect(requests).toHaveLength(1);
  });
});

describe('GETs are not retried', () => {
  test('getTask reports a 503 at once', async () => {
    const { fetch, requests } = fakeFetch(() => apiError(503, 'SERVICE_UNAVAILABLE'));

    const { error } = await settle(clientWith(fetch).getTask('task_01'));

    expect(error).toMatchObject({ status: 503 });
    expect(requests).toHaveLength(1);
  });
});

describe('retry options are validated', () => {
  test.each([[{ maxRetries: -1 }], [{ maxRetries: 11 }], [{ baseDelayMs: 1_000, maxDelayMs: 500 }]])('%j is refused', (retry) => {
    const { fetch } = fakeFetch(() => json(202, task('queued')));
    expect(() => clientWith(fetch, { retry })).toThrow(AssayArgumentError);
  });
});

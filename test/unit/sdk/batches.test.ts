import { AssayApiError, type Batch, type BatchStatus, type CreateBatchRequest, PollTimeoutError } from '../../../src/sdk';
import { apiError, clientWith, fakeFetch, json, settle, task, useFakeClock } from '../../support/client-fake-fetch';

const REQUEST: CreateBatchRequest = {
  task_type: 'summarize',
  model: 'extractive',
  items: [
    { key: 'doc-1', input: { text: 'The first text.' } },
    { key: 'doc-2', input: { text: 'The second text.', max_sentences: 1 } },
  ],
};

function batch(status: BatchStatus, succeeded = 0, failed = 0): Batch {
  return {
    id: 'batch_01',
    task_type: 'summarize',
    model: 'extractive',
    priority: 'low',
    status,
    counts: { total: 2, admitted: 2, succeeded, failed },
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:01Z',
    ended_at: status === 'ended' ? '2025-01-01T00:05:00Z' : null,
    canceled_at: null,
    expires_at: null,
  };
}

function gaps(times: number[]): number[] {
  return times.slice(1).map((time, index) => time - times[index]);
}

useFakeClock();

describe('createBatch', () => {
  test('POSTs the request to /v1/ai/batches and retries it under one Idempotency-Key', async () => {
    const { fetch, requests } = fakeFetch((_request, index) => (index === 0 ? apiError(503, 'SERVICE_UNAVAILABLE') : json(202, batch('in_progress'))));

    const { value } = await settle(clientWith(fetch).createBatch(REQUEST, { idempotencyKey: 'batch-key-1' }));

    expect(value).toEqual(batch('in_progress'));
    expect(requests.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: 'POST', url: 'http://assay.test/v1/ai/batches', body: REQUEST },
      { method: 'POST', url: 'http://assay.test/v1/ai/batches', body: REQUEST },
    ]);
    expect(requests.map((request) => request.headers['idempotency-key'])).toEqual(['batch-key-1', 'batch-key-1']);
  });

  test('a 2xx body without the counts is an AssayApiError, not a crash later', async () => {
    const { counts: _counts, ...countless } = batch('in_progress');
    const { fetch } = fakeFetch(() => json(202, countless));

    const { error } = await settle(clientWith(fetch).createBatch(REQUEST));

    expect(error).toBeInstanceOf(AssayApiError);
    expect(error).toMatchObject({ code: 'UNEXPECTED_RESPONSE', message: 'The response body is not a batch resource' });
  });
});

describe('waitForBatch', () => {
  test('polls every 2 to 5 s, past the 30 polls a task gets, until the batch has ended', async () => {
    const { fetch, requests } = fakeFetch((_request, index) => json(200, index < 50 ? batch('in_progress', index % 2) : batch('ended', 2)));
    const startedAt = Date.now();

    const { value } = await settle(clientWith(fetch).waitForBatch('batch_01'));

    expect(value).toEqual(batch('ended', 2));
    expect(requests).toHaveLength(51);
    expect(requests[0]).toMatchObject({ method: 'GET', url: 'http://assay.test/v1/ai/batches/batch_01' });
    expect(requests[0].at - startedAt).toBe(2_000);
    for (const gap of gaps(requests.map((request) => request.at))) {
      expect(gap).toBeGreaterThanOrEqual(2_000);
      expect(gap).toBeLessThanOrEqual(5_000);
    }
  });

  test('reports every batch polled to onPoll, counts and all', async () => {
    const seen = [batch('in_progress'), batch('canceling', 1), batch('ended', 1, 1)];
    const { fetch } = fakeFetch((_request, index) => json(200, seen[index]));
    const polled: Batch[] = [];

    await settle(clientWith(fetch).waitForBatch('batch_01', { onPoll: (polledBatch) => polled.push(polledBatch) }));

    expect(polled).toEqual(seen);
  });

  test('gives up after an hour by default, with the batch as last seen', async () => {
    const { fetch } = fakeFetch(() => json(200, batch('in_progress')));

    const { error } = await settle(clientWith(fetch).waitForBatch('batch_01'));

    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ resourceId: 'batch_01', lastSeen: { status: 'in_progress' } });
    expect((error as PollTimeoutError).elapsedMs).toBeGreaterThan(59 * 60_000);
    expect((error as PollTimeoutError).elapsedMs).toBeLessThanOrEqual(60 * 60_000);
  });

  test("the caller's poll options replace the batch schedule's", async () => {
    const { fetch, requests } = fakeFetch(() => json(200, batch('in_progress')));
    const startedAt = Date.now();

    const { error } = await settle(clientWith(fetch).waitForBatch('batch_01', { poll: { firstPollDelayMs: 500, maxPolls: 3 } }));

    expect(error).toMatchObject({ name: 'PollTimeoutError', polls: 3 });
    expect(requests[0].at - startedAt).toBe(500);
  });

  test("the client's task schedule does not apply to batches", async () => {
    const { fetch, requests } = fakeFetch((_request, index) => json(200, index < 10 ? batch('in_progress') : batch('ended', 2)));

    const { value } = await settle(clientWith(fetch, { poll: { maxPolls: 5 } }).waitForBatch('batch_01'));

    expect(value).toMatchObject({ status: 'ended' });
    expect(requests).toHaveLength(11);
  });

  test('a batch passed in already ended is returned without polling', async () => {
    const { fetch, requests } = fakeFetch(() => json(200, batch('in_progress')));
    const ended = batch('ended', 2);

    await expect(clientWith(fetch).waitForBatch(ended)).resolves.toBe(ended);
    expect(requests).toHaveLength(0);
  });
});

describe("a batch's other calls", () => {
  test('getBatch and cancelBatch address the batch by id', async () => {
    const { fetch, requests } = fakeFetch((request) => json(request.method === 'POST' ? 202 : 200, batch('canceling')));
    const client = clientWith(fetch);

    await settle(Promise.all([client.getBatch('batch_01'), client.cancelBatch('batch_01')]));

    expect(requests.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: 'GET', url: 'http://assay.test/v1/ai/batches/batch_01', body: undefined },
      { method: 'POST', url: 'http://assay.test/v1/ai/batches/batch_01/cancel', body: undefined },
    ]);
  });

  test('cancelBatch of a batch that ended uncanceled is an AssayApiError BATCH_ALREADY_ENDED', async () => {
    const { fetch } = fakeFetch(() => apiError(409, 'BATCH_ALREADY_ENDED'));

    const { error } = await settle(clientWith(fetch).cancelBatch('batch_01'));

    expect(error).toMatchObject({ name: 'AssayApiError', status: 409, code: 'BATCH_ALREADY_ENDED' });
  });

  test("batchTaskPages follows next_cursor through the batch's tasks, keeping the filters", async () => {
    const pages = [
      { data: [{ ...task('succeeded', 'task_1'), batch_id: 'batch_01', item_key: 'doc-1' }], has_more: true, next_cursor: 'cursor-2' },
      { data: [{ ...task('failed', 'task_2'), batch_id: 'batch_01', item_key: 'doc-2' }], has_more: false, next_cursor: null },
    ];
    const { fetch, requests } = fakeFetch((_request, index) => json(200, pages[index]));
    const seen: string[] = [];

    await settle(
      (async () => {
        for await (const page of clientWith(fetch).batchTaskPages('batch_01', { limit: 1 })) seen.push(...page.data.map((listed) => `${listed.item_key}:${listed.status}`));
      })(),
    );

    expect(seen).toEqual(['doc-1:succeeded', 'doc-2:failed']);
    expect(requests.map((request) => request.url)).toEqual([
      'http://assay.test/v1/ai/batches/batch_01/tasks?limit=1',
      'http://assay.test/v1/ai/batches/batch_01/tasks?limit=1&cursor=cursor-2',
    ]);
  });
});

import { AssayApiError, AssayArgumentError, PollTimeoutError, TaskFailedError } from '../../../src/sdk';
import { NEVER, apiError, assessment, clientWith, fakeFetch, json, networkError, settle, task, useFakeClock } from '../../support/client-fake-fetch';

function gaps(times: number[]): number[] {
  return times.slice(1).map((time, index) => time - times[index]);
}

useFakeClock();

describe('first poll', () => {
  test('happens 1,500 ms after the wait starts, not before', async () => {
    const { fetch, requests } = fakeFetch(() => json(200, task('succeeded')));
    const waiting = clientWith(fetch).waitForTask('task_01');

    await jest.advanceTimersByTimeAsync(1_499);
    expect(requests).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(1);
    await expect(waiting).resolves.toMatchObject({ status: 'succeeded' });
  });

  test('summarize polls 1,500 ms after the create answered', async () => {
    const { fetch, requests } = fakeFetch((request) =>
      request.method === 'POST' ? json(202, task('queued')) : json(200, task('succeeded')),
    );
    const summarizing = clientWith(fetch).summarize('Some long text.');

    await jest.advanceTimersByTimeAsync(0);
    expect(requests.map((request) => request.method)).toEqual(['POST']);
    await jest.advanceTimersByTimeAsync(1_500);
    expect(requests[1]).toMatchObject({ method: 'GET', url: 'http://assay.test/v1/ai/tasks/task_01' });
    expect(requests[1].at - requests[0].at).toBe(1_500);
    await expect(summarizing).resolves.toMatchObject({ output: { summary: 'A short summary.' } });
  });

  test('a task passed in already final is returned without polling', async () => {
    const { fetch, requests } = fakeFetch(() => json(200, task('running')));
    const done = task('succeeded') as never;

    await expect(clientWith(fetch).waitForTask(done)).resolves.toBe(done);
    expect(requests).toHaveLength(0);
  });
});

describe('later polls', () => {
  test('follow each other after 1,000 to 2,000 ms', async () => {
    const { fetch, requests } = fakeFetch(() => json(200, task('running')));

    await settle(clientWith(fetch).waitForTask('task_01'));

    expect(requests.length).toBeGreaterThan(20);
    for (const gap of gaps(requests.map((request) => request.at))) {
      expect(gap).toBeGreaterThanOrEqual(1_000);
      expect(gap).toBeLessThanOrEqual(2_000);
    }
  });

  test('are jittered across the whole 1–2 s range', async () => {
    const draws = [0, 0.5, 0.999];
    jest.spyOn(Math, 'random').mockImplementation(() => draws.shift() ?? 0.5);
    const { fetch, requests } = fakeFetch((_request, index) => json(200, task(index < 3 ? 'running' : 'succeeded')));

    await settle(clientWith(fetch).waitForTask('task_01'));

    expect(gaps(requests.map((request) => request.at))).toEqual([1_000, 1_500, 1_999]);
  });

  test('stop as soon as the task has succeeded', async () => {
    const { fetch, requests } = fakeFetch((_request, index) => json(200, task(index < 2 ? 'running' : 'succeeded')));

    const { value } = await settle(clientWith(fetch).waitForTask('task_01'));

    expect(value).toMatchObject({ status: 'succeeded', output: { summary: 'A short summary.' } });
    expect(requests).toHaveLength(3);
  });

  test('report every status seen to onPoll', async () => {
    const statuses = ['queued', 'running', 'succeeded'] as const;
    const { fetch } = fakeFetch((_request, index) => json(200, task(statuses[index])));
    const seen: string[] = [];

    await settle(clientWith(fetch).waitForTask('task_01', { onPoll: (polled) => seen.push(polled.status) }));

    expect(seen).toEqual(['queued', 'running', 'succeeded']);
  });
});

describe('polls the service holds (Prefer: wait)', () => {
  const heldAfter = (ms: number, status: 'running' | 'succeeded') =>
    new Promise<ReturnType<typeof json>>((resolve) => setTimeout(() => resolve(json(200, task(status), { 'preference-applied': 'wait=20' })), ms));

  test('each poll asks the service to hold it for 20 s', async () => {
    const { fetch, requests } = fakeFetch((_request, index) => json(200, task(index < 1 ? 'running' : 'succeeded')));

    await settle(clientWith(fetch).waitForTask('task_01'));

    expect(requests.map((request) => request.headers.prefer)).toEqual(['wait=20', 'wait=20']);
  });

  test('after an answer held through its wait, the next poll goes at once: one request per change, not per interval', async () => {
    const { fetch, requests } = fakeFetch((_request, index) => heldAfter(index < 2 ? 20_000 : 3_000, index < 2 ? 'running' : 'succeeded'));

    const { value } = await settle(clientWith(fetch).waitForTask('task_01'));

    expect(value).toMatchObject({ status: 'succeeded' });
    expect(gaps(requests.map((request) => request.at))).toEqual([20_000, 20_000]);
  });

  test('a held answer that came quickly is still followed by the interval, counted from when the poll was sent', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    const { fetch, requests } = fakeFetch((_request, index) => heldAfter(300, index < 1 ? 'running' : 'succeeded'));

    await settle(clientWith(fetch).waitForTask('task_01'));

    expect(gaps(requests.map((request) => request.at))).toEqual([1_500]);
  });

  test('a service that answers at once without Preference-Applied is polled on the usual interval after each answer', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0);
    const { fetch, requests } = fakeFetch(
      (_request, index) => new Promise((resolve) => setTimeout(() => resolve(json(200, task(index < 2 ? 'running' : 'succeeded'))), 200)),
    );

    await settle(clientWith(fetch).waitForTask('task_01'));

    expect(gaps(requests.map((request) => request.at))).toEqual([1_200, 1_200]);
  });

  test('the wait asked for ends a second before the time ceiling, and poll.waitSeconds: 0 asks for none', async () => {
    const { fetch, requests } = fakeFetch(() => heldAfter(20_000, 'running'));
    await settle(clientWith(fetch).waitForTask('task_01'));
    expect(requests.map((request) => request.headers.prefer)).toEqual(['wait=20', 'wait=20', 'wait=17']);

    const plain = fakeFetch((_request, index) => json(200, task(index < 1 ? 'running' : 'succeeded')));
    await settle(clientWith(plain.fetch, { poll: { waitSeconds: 0 } }).waitForTask('task_01'));
    expect(plain.requests.map((request) => request.headers.prefer)).toEqual([undefined, undefined]);
  });

  test('summarize holds its create as a poll would: a task final within the wait takes one request, no GET', async () => {
    const { fetch, requests } = fakeFetch(() => heldAfter(400, 'succeeded'));

    const { value } = await settle(clientWith(fetch).summarize('Some long text.'));

    expect(value).toMatchObject({ status: 'succeeded' });
    expect(requests.map((request) => [request.method, request.headers.prefer])).toEqual([['POST', 'respond-async, wait=20']]);
  });

  test('summarize against a service that answers its create at once polls as before; poll.waitSeconds: 0 asks for no wait', async () => {
    const { fetch, requests } = fakeFetch((request) => (request.method === 'POST' ? json(202, task('queued')) : json(200, task('succeeded'))));
    await settle(clientWith(fetch).summarize('Some long text.'));
    expect(requests.map((request) => request.method)).toEqual(['POST', 'GET']);

    const plain = fakeFetch((request) => (request.method === 'POST' ? json(202, task('queued')) : json(200, task('succeeded'))));
    await settle(clientWith(plain.fetch, { poll: { waitSeconds: 0 } }).summarize('Some long text.'));
    expect(plain.requests.map((request) => request.headers.prefer)).toEqual([undefined, undefined]);
  });

  test('getTask passes waitSeconds on as Prefer: wait, and refuses a wait the service cannot hold', async () => {
    const { fetch, requests } = fakeFetch(() => json(200, task('running')));

    await clientWith(fetch).getTask('task_01', { waitSeconds: 5 });
    expect(requests[0].headers.prefer).toBe('wait=5');
    await expect(clientWith(fetch).getTask('task_01', { waitSeconds: 61 })).rejects.toBeInstanceOf(AssayArgumentError);
  });
});

describe('polls a busy service paces (Retry-After on an answer)', () => {
  test('an unheld answer asking for more than the interval defers the next poll by it', async () => {
    const { fetch, requests } = fakeFetch((_request, index) => (index < 2 ? json(200, task('running'), { 'retry-after': '12' }) : json(200, task('succeeded'))));

    const { value } = await settle(clientWith(fetch).waitForTask('task_01'));

    expect(value).toMatchObject({ status: 'succeeded' });
    expect(gaps(requests.map((request) => request.at))).toEqual([12_000, 12_000]);
  });

  test('a Retry-After shorter than the interval leaves the interval as it is', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    const { fetch, requests } = fakeFetch((_request, index) => json(200, task(index < 1 ? 'running' : 'succeeded'), { 'retry-after': '1' }));

    await settle(clientWith(fetch).waitForTask('task_01'));

    expect(gaps(requests.map((request) => request.at))).toEqual([1_500]);
  });

  test('a create answered at once with Retry-After is first polled after it, by summarize and by createTask then waitForTask', async () => {
    const paced = () => fakeFetch((request) => (request.method === 'POST' ? json(202, task('queued'), { 'retry-after': '12' }) : json(200, task('succeeded'))));
    const summarized = paced();
    await settle(clientWith(summarized.fetch).summarize('Some long text.'));
    const chained = paced();
    const client = clientWith(chained.fetch);
    await settle(client.createTask({ task_type: 'summarize', input: { text: 'Some long text.' } }).then((created) => client.waitForTask(created)));

    for (const { requests } of [summarized, chained]) {
      expect(requests.map((request) => request.method)).toEqual(['POST', 'GET']);
      expect(requests[1].at - requests[0].at).toBe(12_000);
    }
  });

  test('a create\'s Retry-After shorter than the first poll\'s delay leaves the delay as it is', async () => {
    const { fetch, requests } = fakeFetch((request) => (request.method === 'POST' ? json(202, task('queued'), { 'retry-after': '1' }) : json(200, task('succeeded'))));

    await settle(clientWith(fetch).summarize('Some long text.'));

    expect(requests[1].at - requests[0].at).toBe(1_500);
  });

  test('a Retry-After past the time ceiling still leaves one more poll before it', async () => {
    const { fetch, requests } = fakeFetch(() => json(200, task('running'), { 'retry-after': '30' }));

    const { error } = await settle(clientWith(fetch, { poll: { timeoutMs: 40_000 } }).waitForTask('task_01'));

    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(gaps(requests.map((request) => request.at))).toEqual([30_000, 7_500]);
  });
});

describe('ceilings', () => {
  test('never more than 30 polls, then PollTimeoutError', async () => {
    const { fetch, requests } = fakeFetch(() => json(200, task('running')));

    const { error } = await settle(clientWith(fetch).waitForTask('task_01'));

    expect(requests).toHaveLength(30);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ resourceId: 'task_01', polls: 30, lastSeen: { status: 'running' } });
  });

  test('stops at about 60 s when slow answers leave room for fewer than 30 polls', async () => {
    const { fetch, requests } = fakeFetch(
      () => new Promise((resolve) => setTimeout(() => resolve(json(200, task('running'))), 1_000)),
    );
    const startedAt = Date.now();

    const { error } = await settle(clientWith(fetch).waitForTask('task_01'));

    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(requests.length).toBeLessThan(30);
    expect(requests[requests.length - 1].at - startedAt).toBeLessThanOrEqual(60_000);
    expect((error as PollTimeoutError).elapsedMs).toBeGreaterThan(55_000);
    expect((error as PollTimeoutError).elapsedMs).toBeLessThanOrEqual(61_000);
  });

  test('a poll still unanswered at the ceiling is cut off and the wait ends', async () => {
    const { fetch } = fakeFetch((_request, index) => (index === 0 ? json(200, task('running')) : NEVER));

    const { error } = await settle(clientWith(fetch).waitForTask('task_01'));

    expect(error).toBeInstanceOf(PollTimeoutError);
    expect((error as PollTimeoutError).elapsedMs).toBeLessThanOrEqual(61_500);
  });

  test('configured ceilings replace the defaults', async () => {
    const { fetch, requests } = fakeFetch(() => json(200, task('running')));

    await settle(clientWith(fetch, { poll: { maxPolls: 5 } }).waitForTask('task_01'));

    expect(requests).toHaveLength(5);
  });
});

describe('a poll that is not a success', () => {
  test('stops polling at the first non-2xx with an AssayApiError carrying status, code and request_id', async () => {
    const { fetch, requests } = fakeFetch((_request, index) =>
      index === 0 ? json(200, task('running')) : apiError(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '2' }),
    );

    const { error } = await settle(clientWith(fetch).waitForTask('task_01'));

    expect(requests).toHaveLength(2);
    expect(error).toBeInstanceOf(AssayApiError);
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', request_id: 'req_503', retryAfterMs: 2_000 });
  });

  test('a non-2xx without the Assay error body is still an AssayApiError, with the X-Request-Id header', async () => {
    const { fetch } = fakeFetch(() => ({ status: 502, body: '<html>Bad gateway</html>', headers: { 'x-request-id': 'req_proxy' } }));

    const { error } = await settle(clientWith(fetch).waitForTask('task_01'));

    expect(error).toMatchObject({ name: 'AssayApiError', status: 502, code: 'UNEXPECTED_RESPONSE', request_id: 'req_proxy' });
  });

  test('a 2xx body that is not a task is an AssayApiError, not a crash later', async () => {
    const { fetch } = fakeFetch(() => json(200, { hello: 'world' }));

    const { error } = await settle(clientWith(fetch).waitForTask('task_01'));

    expect(error).toMatchObject({ name: 'AssayApiError', status: 200, code: 'UNEXPECTED_RESPONSE' });
  });

  test('a failed task rejects with TaskFailedError carrying its error code and message', async () => {
    const { fetch, requests } = fakeFetch(() => json(200, task('failed')));

    const { error } = await settle(clientWith(fetch).waitForTask('task_01'));

    expect(requests).toHaveLength(1);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toMatchObject({ taskId: 'task_01', code: 'INPUT_REJECTED', task: { status: 'failed' } });
    expect((error as TaskFailedError).message).toContain('The provider rejected the input');
  });

  test('a poll that got no response at all is asked again by the next scheduled poll', async () => {
    const { fetch, requests } = fakeFetch((_request, index) => {
      if (index === 0) throw networkError();
      return json(200, task('succeeded'));
    });

    const { value } = await settle(clientWith(fetch).waitForTask('task_01'));

    expect(value).toMatchObject({ status: 'succeeded' });
    const gap = requests[1].at - requests[0].at;
    expect(gap).toBeGreaterThanOrEqual(1_000);
    expect(gap).toBeLessThanOrEqual(2_000);
  });

  test('polls that never get a response end in PollTimeoutError naming the last failure', async () => {
    const { fetch } = fakeFetch(() => {
      throw networkError();
    });

    const { error } = await settle(clientWith(fetch).waitForTask('task_01'));

    expect(error).toBeInstanceOf(PollTimeoutError);
    expect((error as PollTimeoutError).cause).toMatchObject({ name: 'AssayNetworkError' });
  });
});

describe('AbortSignal', () => {
  test('aborting between polls rejects with the signal reason and polls no more', async () => {
    const { fetch, requests } = fakeFetch(() => json(200, task('running')));
    const controller = new AbortController();
    const waiting = clientWith(fetch).waitForTask('task_01', { signal: controller.signal });
    const outcome = waiting.catch((error: unknown) => error);

    await jest.advanceTimersByTimeAsync(2_000);
    controller.abort(new Error('user cancelled'));
    await jest.advanceTimersByTimeAsync(60_000);

    await expect(outcome).resolves.toMatchObject({ message: 'user cancelled' });
    expect(requests).toHaveLength(1);
  });

  test('aborting cancels a poll in flight', async () => {
    const { fetch } = fakeFetch(() => NEVER);
    const controller = new AbortController();
    const outcome = clientWith(fetch)
      .waitForTask('task_01', { signal: controller.signal })
      .catch((error: unknown) => error);

    await jest.advanceTimersByTimeAsync(1_600);
    controller.abort();

    await expect(outcome).resolves.toMatchObject({ name: 'AbortError' });
  });

  test('an already aborted signal polls nothing', async () => {
    const { fetch, requests } = fakeFetch(() => json(200, task('succeeded')));

    const { error } = await settle(clientWith(fetch).waitForTask('task_01', { signal: AbortSignal.abort() }));

    expect(error).toMatchObject({ name: 'AbortError' });
    expect(requests).toHaveLength(0);
  });
});

describe('assessments', () => {
  test('waitForAssessment polls on the same schedule until completed', async () => {
    const statuses = ['submitted', 'under_review', 'completed'] as const;
    const { fetch, requests } = fakeFetch((_request, index) => json(200, assessment(statuses[index])));
    const startedAt = Date.now();

    const { value } = await settle(clientWith(fetch).waitForAssessment('asmt_01'));

    expect(value).toMatchObject({ status: 'completed', review: { verdict: 'approved' } });
    expect(requests[0].at - startedAt).toBe(1_500);
    expect(requests[0].url).toBe('http://assay.test/v1/network-assessments/asmt_01');
  });
});

describe('poll options are validated', () => {
  test.each([
    [{ minIntervalMs: 10 }, 'poll.minIntervalMs'],
    [{ minIntervalMs: 3_000, maxIntervalMs: 2_000 }, 'poll.maxIntervalMs'],
    [{ maxPolls: 2.5 }, 'poll.maxPolls'],
    [{ timeoutMs: Number.NaN }, 'poll.timeoutMs'],
    [{ firstPollDelayMs: 5_000, timeoutMs: 2_000 }, 'poll.firstPollDelayMs'],
  ])('%j is refused naming %s', (poll, name) => {
    const { fetch } = fakeFetch(() => json(200, task('running')));
    expect(() => clientWith(fetch, { poll })).toThrow(AssayArgumentError);
    expect(() => clientWith(fetch, { poll })).toThrow(name);
  });

  test('per-call options are validated too', async () => {
    const { fetch, requests } = fakeFetch(() => json(200, task('running')));

    await expect(clientWith(fetch).waitForTask('task_01', { poll: { maxPolls: 0 } })).rejects.toBeInstanceOf(AssayArgumentError);
    expect(requests).toHaveLength(0);
  });
});

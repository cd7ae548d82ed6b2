import { createHash } from 'node:crypto';
import * as http from 'node:http';
import { eventually } from '../../support/eventually';
import { closeNow, listenOnLoopback, onBody } from '../../support/loopback-server';
import { ModelProxy } from '../../support/model-proxy';
import { chatCompletionBody } from '../../support/remote-provider-env';

// The proxy in front of a fake provider that holds every request until the test lets it answer,
// so what is in flight at any moment is the test's to choose.

class HoldingUpstream {
  /** Each chat request's user content, in arrival order. */
  readonly received: string[] = [];
  /** Requests whose connection the proxy dropped before they were answered. */
  dropped = 0;
  private held: http.ServerResponse[] = [];
  readonly server = http.createServer((req, res) => {
    res.once('close', () => {
      if (!res.writableFinished) this.dropped++;
    });
    onBody(req, (body) => {
      const messages = (JSON.parse(body) as { messages: Array<{ content: string }> }).messages;
      this.received.push(messages[messages.length - 1].content);
      this.held.push(res);
    });
  });

  get waiting(): number {
    return this.held.length;
  }

  /** Drops the held requests' connections, as a provider killed mid-request does. */
  dropAll(): void {
    for (const res of this.held.splice(0)) res.socket?.destroy();
  }

  releaseAll(): void {
    for (const res of this.held.splice(0)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(chatCompletionBody('A summary.'));
    }
  }
}

function chat(baseUrl: string, text: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'smollm2', messages: [{ role: 'system', content: 'Summarise.' }, { role: 'user', content: text }] }),
    signal,
  });
}

let upstream: HoldingUpstream;
let proxy: ModelProxy;

beforeEach(async () => {
  upstream = new HoldingUpstream();
  const port = await listenOnLoopback(upstream.server);
  proxy = await ModelProxy.start(`http://127.0.0.1:${port}/v1`);
});

afterEach(async () => {
  await proxy.close();
  await closeNow(upstream.server);
});

it('counts the requests in flight at once and records each call by its user content', async () => {
  const answers = ['one', 'two', 'one'].map((text) => chat(proxy.baseUrl, text));
  await eventually(async () => upstream.waiting, (held) => held === 3, 'three requests held upstream');

  expect(proxy.inFlight).toBe(3);
  upstream.releaseAll();
  const responses = await Promise.all(answers);

  expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
  expect(await responses[0].json()).toEqual(JSON.parse(chatCompletionBody('A summary.')));
  await eventually(async () => proxy.inFlight, (count) => count === 0, 'nothing in flight');
  expect(proxy.maxInFlight).toBe(3);
  expect(proxy.callsByContent()).toEqual(new Map([['one', 2], ['two', 1]]));
  const call = proxy.calls.find((recorded) => recorded.userContent === 'two');
  expect(call).toMatchObject({ status: 200, bodyHash: createHash('sha256').update('two').digest('hex') });
  expect(call?.endedAt).toBeGreaterThanOrEqual(call?.startedAt ?? Infinity);

  proxy.resetCounts();
  expect(proxy.maxInFlight).toBe(0);
});

it('answers the next calls 429 with Retry-After without reaching the provider, then passes them on again', async () => {
  proxy.answer429For(2, 7);

  const refused = [await chat(proxy.baseUrl, 'a'), await chat(proxy.baseUrl, 'b')];
  const passed = chat(proxy.baseUrl, 'c');
  await eventually(async () => upstream.waiting, (held) => held === 1, 'one request held upstream');
  upstream.releaseAll();

  expect(refused.map((response) => [response.status, response.headers.get('retry-after')])).toEqual([[429, '7'], [429, '7']]);
  expect(await refused[0].json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
  expect((await passed).status).toBe(200);
  expect(upstream.received).toEqual(['c']);
  expect(proxy.calls.map((call) => call.status)).toEqual([429, 429, 200]);
});

it('aborts the upstream request when its client goes away, and the call ends', async () => {
  const client = new AbortController();
  const answer = chat(proxy.baseUrl, 'abandoned', client.signal).catch((error: Error) => error);
  await eventually(async () => upstream.waiting, (held) => held === 1, 'one request held upstream');

  client.abort();

  expect(await answer).toMatchObject({ name: 'AbortError' });
  await eventually(async () => upstream.dropped, (dropped) => dropped === 1, 'the upstream request dropped');
  await eventually(async () => proxy.inFlight, (count) => count === 0, 'nothing in flight');
  expect(proxy.calls[0]).toMatchObject({ userContent: 'abandoned', abandoned: true, endedAt: expect.any(Number) });
  expect(proxy.calls[0].status).toBeUndefined();
});

it('answers 502 when the provider is down', async () => {
  await closeNow(upstream.server);

  const response = await chat(proxy.baseUrl, 'nobody home');

  expect(response.status).toBe(502);
  expect(await response.json()).toMatchObject({ error: { type: 'bad_gateway' } });
  expect(proxy.calls[0]).toMatchObject({ status: 502, upstreamError: 'ECONNREFUSED' });
});

it('cuts the client off when the provider dies mid-request, as it would be without the proxy', async () => {
  const answer = chat(proxy.baseUrl, 'cut').catch((error: Error) => error);
  await eventually(async () => upstream.waiting, (held) => held === 1, 'one request held upstream');

  upstream.dropAll();

  expect(await answer).toMatchObject({ message: 'fetch failed' });
  await eventually(async () => proxy.inFlight, (count) => count === 0, 'nothing in flight');
  expect(proxy.calls[0]).toMatchObject({ upstreamError: 'ECONNRESET', endedAt: expect.any(Number) });
  expect(proxy.calls[0].status).toBeUndefined();
  expect(proxy.calls[0].abandoned).toBeUndefined();
});

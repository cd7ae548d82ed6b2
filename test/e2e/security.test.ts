import * as net from 'node:net';
import { AssayHarness } from '../support/assay-harness';
import { CapturedLog } from '../support/captured-log';
import { bearer, http } from '../support/http';
import { SUMMARIZE_TASK } from '../support/tasks';

const BURST = 5;
// One create a minute refills the key's bucket: a slow machine sending the burst cannot earn a create back before the refused one.
const CREATES_PER_MINUTE = 1;
const SECONDS_PER_CREATE = 60 / CREATES_PER_MINUTE;
// The RateLimit-Policy window: how long the empty bucket takes to refill the burst.
const KEY_WINDOW_SECONDS = BURST * SECONDS_PER_CREATE;

const captured = new CapturedLog();

let harness: AssayHarness;
let tasksUrl: string;

beforeAll(async () => {
  harness = await AssayHarness.start({
    worker: false,
    logDestination: captured.destination,
    // The limits as a ceiling: one organisation alone would otherwise be lent what nobody uses (spare-capacity.test.ts).
    env: { LOG_LEVEL: 'trace', RATE_LIMIT_CREATES_BURST: String(BURST), RATE_LIMIT_CREATES_PER_MINUTE: String(CREATES_PER_MINUTE), REQUEST_TIMEOUT_MS: '1000', ADMISSION_ALONE_IN_FLIGHT: '0' },
  });
  tasksUrl = `${harness.baseUrl}/v1/ai/tasks`;
});

afterAll(async () => {
  await harness?.stop();
});

function createTask(key: string) {
  return http(tasksUrl, { method: 'POST', headers: bearer(key), json: SUMMARIZE_TASK });
}

describe('create rate limit', () => {
  it('answers a burst over the limit with 429 RATE_LIMITED, Retry-After and the RateLimit headers', async () => {
    const { key } = await harness.issueKey('acme', 'test');
    const accepted = [];
    for (let i = 0; i < BURST; i++) accepted.push(await createTask(key));
    expect(accepted.map((response) => response.status)).toEqual(Array(BURST).fill(202));
    // Each create counts against the key's limit and then its organisation's (defaults: 20 at 600/min).
    expect(accepted[0].headers.get('ratelimit-policy')).toBe(`"creates";q=${BURST};w=${KEY_WINDOW_SECONDS}, "organisation-creates";q=20;w=2`);
    expect(accepted[0].headers.get('ratelimit')).toBe(`"creates";r=${BURST - 1};t=${SECONDS_PER_CREATE}, "organisation-creates";r=19;t=1`);

    const refused = await createTask(key);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String), request_id: refused.headers.get('x-request-id') } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Refused by the key's limit, so never counted against the organisation's.
    expect(refused.headers.get('ratelimit-policy')).toBe(`"creates";q=${BURST};w=${KEY_WINDOW_SECONDS}`);
    expect(refused.headers.get('ratelimit')).toMatch(/^"creates";r=0;t=\d+$/);
  });

  it('never limits polls: 120 rapid GETs of one task with the create quota spent all succeed', async () => {
    const { key } = await harness.issueKey('acme', 'test');
    const created = await createTask(key);
    while ((await createTask(key)).status !== 429);
    const polls = await Promise.all(Array.from({ length: 120 }, () => http(`${tasksUrl}/${created.body.id}`, { headers: bearer(key) })));
    expect(polls.map((poll) => poll.status)).toEqual(Array(120).fill(200));
    expect(polls.every((poll) => poll.headers.get('ratelimit') === null)).toBe(true);
  });

  it('limits each key on its own', async () => {
    const busy = await harness.issueKey('acme', 'test');
    while ((await createTask(busy.key)).status !== 429);
    const quiet = await harness.issueKey('acme', 'test');
    expect((await createTask(quiet.key)).status).toBe(202);
  });
});

describe('response headers', () => {
  it.each([
    ['a successful read', () => harness.issueKey('acme', 'test').then(({ key }) => http(`${harness.baseUrl}/v1/ai/tasks/task_01JAAAAAAAAAAAAAAAAAAAAAAA`, { headers: bearer(key) }))],
    ['a refused credential', () => http(tasksUrl, { method: 'POST', json: SUMMARIZE_TASK })],
    ['an unknown route', () => http(`${harness.baseUrl}/v2/anything`)],
  ])('on %s: Cache-Control no-store, a request id, no framework banner', async (_name, send) => {
    const response = await send();
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(response.headers.get('server')).toBeNull();
  });
});

describe('request timeout', () => {
  it('answers 408 and closes the connection when a request does not arrive in time', async () => {
    const { port } = new URL(harness.baseUrl);
    const { key } = await harness.issueKey('acme', 'test');
    const answer = await new Promise<string>((resolve, reject) => {
      let received = '';
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(`POST /v1/ai/tasks HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"task_`);
      });
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe('secrets in errors and logs', () => {
  it('never echoes the key or a stack trace in an error body', async () => {
    const { key } = await harness.issueKey('acme', 'test');
    const responses = [
      await http(tasksUrl, { method: 'POST', headers: { authorization: `Basic ${key}` }, json: SUMMARIZE_TASK }),
      await http(tasksUrl, { method: 'POST', headers: { ...bearer(key), 'content-type': 'application/json' }, body: `{"key": "${key}",` }),
      await http(tasksUrl, { method: 'POST', headers: bearer(key), json: { task_type: 'summarize', input: { text: key, max_sentences: key } } }),
      await http(`${tasksUrl}/${key}`, { headers: bearer(key) }),
      await http(tasksUrl, { method: 'POST', headers: bearer(key), json: { task_type: key, input: { text: 'hi' } } }),
    ];
    expect(responses.map((response) => response.status)).toEqual([401, 400, 400, 404, 400]);
    for (const response of responses) {
      const body = JSON.stringify(response.body);
      expect(body).not.toContain(key.slice('assay_test_'.length, 'assay_test_'.length + 8));
      expect(body).not.toMatch(/at .*\.(js|ts):\d+/);
    }
  });

  it('writes no part of a presented key to the trace-level log', async () => {
    const { key } = await harness.issueKey('acme', 'test');
    const secret = key.slice('assay_test_'.length);
    captured.lines.length = 0;
    await createTask(key);
    await http(`${tasksUrl}/task_01JAAAAAAAAAAAAAAAAAAAAAAA`, { headers: bearer(key) });
    await http(`${tasksUrl}?api_key=${key}`, { headers: { authorization: `Basic ${key}` } });
    await http(`${tasksUrl}/${key}`, { headers: { authorization: `Bearer ${key}` } });
    await http(tasksUrl, { method: 'POST', headers: { ...bearer(key), 'content-type': 'application/json' }, body: '{' });
    const log = captured.lines.join('');
    expect(log).toContain('incoming request');
    expect(log).toContain('request completed');
    for (let start = 0; start + 6 <= secret.length; start++) expect(log).not.toContain(secret.slice(start, start + 6));
  });
});

import { randomUUID } from 'node:crypto';
import { UNLIMITED_CREATES } from '../../bench/unlimited-creates';
import { CLOSED_READ_TTL_MS } from '../../src/api/tasks/task-workflow-reader';
import { taskIdForIdempotencyKey } from '../../src/common/ids/task-ids';
import { AssayHarness } from '../support/assay-harness';
import { bearer, http } from '../support/http';

const ARTICLE = [
  'The city council approved the new transit plan on Tuesday after months of debate.',
  'The plan adds three bus lines and extends the tram to the airport by 2028.',
  'Critics said the budget of 400 million was too high for a city of this size.',
  'Supporters argued that congestion already costs local businesses far more every year.',
  'The first new bus line will open in the spring, the mayor said.',
].join(' ');

let harness: AssayHarness;
let key: string;
let tasksUrl: string;

beforeAll(async () => {
  // One key creates more tasks here than a burst allows; the limits have their own tests.
  harness = await AssayHarness.start({ env: UNLIMITED_CREATES });
  key = (await harness.issueKey('acme', 'test')).key;
  tasksUrl = `${harness.baseUrl}/v1/ai/tasks`;
});

afterAll(async () => {
  await harness?.stop();
});

function createTask(body: unknown, headers: Record<string, string> = {}, apiKey = key) {
  return http(tasksUrl, { method: 'POST', headers: { ...bearer(apiKey), ...headers }, json: body });
}

async function pollUntilFinal(id: string, apiKey = key): Promise<any> {
  const seen: string[] = [];
  for (let attempt = 0; attempt < 120; attempt++) {
    const { status, body } = await http(`${tasksUrl}/${id}`, { headers: bearer(apiKey) });
    expect(status).toBe(200);
    seen.push(body.status);
    if (body.status === 'succeeded' || body.status === 'failed') return { ...body, seen };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`task ${id} not final; saw ${seen.join(',')}`);
}

describe('POST /v1/ai/tasks', () => {
  it('accepts a summarize task with 202, a Location header and status queued', async () => {
    const response = await createTask({ task_type: 'summarize', input: { text: ARTICLE } });
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ task_type: 'summarize', status: 'queued' });
    expect(response.body.id).toMatch(/^task_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(response.headers.get('location')).toBe(`/v1/ai/tasks/${response.body.id}`);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(Date.parse(response.body.created_at)).not.toBeNaN();
  });

  it('runs the task to succeeded with a summary drawn from the text', async () => {
    const created = await createTask({ task_type: 'summarize', input: { text: ARTICLE } });
    const final = await pollUntilFinal(created.body.id);
    expect(final.status).toBe('succeeded');
    expect(final.output.summary.length).toBeGreaterThan(20);
    expect(final.output.summary.length).toBeLessThanOrEqual(ARTICLE.length);
    expect(ARTICLE).toContain(final.output.summary.split('.')[0]);
    expect(final.created_at).toBe(created.body.created_at);
    expect(Date.parse(final.updated_at)).toBeGreaterThanOrEqual(Date.parse(final.created_at));
    expect(created.body.expires_at).toBeNull();
    // Kept the default retention period, 30 days, from when it finished.
    expect(Date.parse(final.expires_at) - Date.parse(final.updated_at)).toBe(30 * 86_400_000);
  });

  it('never shows a status going backwards while polling', async () => {
    const order = ['queued', 'running', 'succeeded'];
    const created = await createTask({ task_type: 'summarize', input: { text: ARTICLE } });
    const final = await pollUntilFinal(created.body.id);
    const ranks = final.seen.map((status: string) => order.indexOf(status));
    expect(ranks).toEqual([...ranks].sort((a: number, b: number) => a - b));
  });

  it('honours input.max_sentences', async () => {
    const created = await createTask({ task_type: 'summarize', input: { text: ARTICLE, max_sentences: 1 } });
    const final = await pollUntilFinal(created.body.id);
    expect(final.output.summary.match(/[.!?](\s|$)/g)).toHaveLength(1);
  });
});

describe('Prefer: wait on POST /v1/ai/tasks, on the built-in model', () => {
  it('answers 200 with the final task exactly as GET shows it, before and after the read cache expires, and as a replay does', async () => {
    const headers = { prefer: 'wait=10', 'idempotency-key': randomUUID() };
    const held = await createTask({ task_type: 'summarize', input: { text: ARTICLE } }, headers);
    expect(held.status).toBe(200);
    expect(held.body).toMatchObject({ status: 'succeeded', usage: { model: 'extractive', provider_calls: 0, input_characters: ARTICLE.length } });
    const get = () => http(`${tasksUrl}/${held.body.id}`, { headers: bearer(key) });
    expect((await get()).body).toEqual(held.body);
    await new Promise((resolve) => setTimeout(resolve, CLOSED_READ_TTL_MS + 100));
    expect((await get()).body).toEqual(held.body);
    const replayed = await createTask({ task_type: 'summarize', input: { text: ARTICLE } }, headers);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(held.body);
  });
});

describe('Idempotency-Key', () => {
  it('replays the same task for a repeated Idempotency-Key and marks the replay', async () => {
    const idempotencyKey = randomUUID();
    const body = { task_type: 'summarize', input: { text: ARTICLE } };
    const first = await createTask(body, { 'idempotency-key': idempotencyKey });
    const second = await createTask(body, { 'idempotency-key': idempotencyKey });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.body.id).toBe(first.body.id);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('creates exactly one task for concurrent POSTs with one key', async () => {
    const idempotencyKey = randomUUID();
    const body = { task_type: 'summarize', input: { text: ARTICLE } };
    const responses = await Promise.all(Array.from({ length: 12 }, () => createTask(body, { 'idempotency-key': idempotencyKey })));
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(202));
    expect(new Set(responses.map((response) => response.body.id)).size).toBe(1);
    expect(responses.filter((response) => response.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
  });

  it('replays a finished task with its final status', async () => {
    const idempotencyKey = randomUUID();
    const body = { task_type: 'summarize', input: { text: ARTICLE } };
    const first = await createTask(body, { 'idempotency-key': idempotencyKey });
    await pollUntilFinal(first.body.id);
    const replay = await createTask(body, { 'idempotency-key': idempotencyKey });
    expect(replay.body).toMatchObject({ id: first.body.id, status: 'succeeded' });
  });

  it('treats the quoted form of a key as the same key', async () => {
    const idempotencyKey = randomUUID();
    const body = { task_type: 'summarize', input: { text: ARTICLE } };
    const bare = await createTask(body, { 'idempotency-key': idempotencyKey });
    const quoted = await createTask(body, { 'idempotency-key': `"${idempotencyKey}"` });
    expect(quoted.body.id).toBe(bare.body.id);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with a different body', async () => {
    const idempotencyKey = randomUUID();
    await createTask({ task_type: 'summarize', input: { text: ARTICLE } }, { 'idempotency-key': idempotencyKey });
    const reused = await createTask({ task_type: 'summarize', input: { text: 'Something else entirely.' } }, { 'idempotency-key': idempotencyKey });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('rejects an Idempotency-Key longer than 255 characters', async () => {
    const response = await createTask({ task_type: 'summarize', input: { text: ARTICLE } }, { 'idempotency-key': 'k'.repeat(256) });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_REQUEST');
  });
});

describe('validation errors', () => {
  const cases: Array<[string, RequestInit & { json?: unknown }, number, string]> = [
    ['an unknown task_type', { json: { task_type: 'translate', input: { text: 'hi' } } }, 400, 'UNSUPPORTED_TASK_TYPE'],
    ['a missing task_type', { json: { input: { text: 'hi' } } }, 400, 'INVALID_REQUEST'],
    ['a missing input', { json: { task_type: 'summarize' } }, 400, 'INVALID_REQUEST'],
    ['a missing text', { json: { task_type: 'summarize', input: {} } }, 400, 'INVALID_REQUEST'],
    ['an empty text', { json: { task_type: 'summarize', input: { text: '' } } }, 400, 'INVALID_REQUEST'],
    ['a whitespace-only text', { json: { task_type: 'summarize', input: { text: ' \n\t ' } } }, 400, 'INVALID_REQUEST'],
    ['a text that is not a string', { json: { task_type: 'summarize', input: { text: 42 } } }, 400, 'INVALID_REQUEST'],
    ['an array body', { json: [1, 2] }, 400, 'INVALID_REQUEST'],
    ['max_sentences out of range', { json: { task_type: 'summarize', input: { text: 'hi', max_sentences: 21 } } }, 400, 'INVALID_REQUEST'],
    ['an unknown field', { json: { task_type: 'summarize', input: { text: 'hi' }, extra: true } }, 400, 'INVALID_REQUEST'],
    ['invalid JSON', { body: '{"task_type": "summarize", ', headers: { 'content-type': 'application/json' } }, 400, 'INVALID_REQUEST'],
    ['a __proto__ key', { body: '{"task_type":"summarize","input":{"text":"hi"},"__proto__":{"x":1}}', headers: { 'content-type': 'application/json' } }, 400, 'INVALID_REQUEST'],
    ['a text/plain body', { body: 'summarize this', headers: { 'content-type': 'text/plain' } }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['no Content-Type', { body: new Uint8Array(Buffer.from('{}')) }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['a text over the size limit', { json: { task_type: 'summarize', input: { text: 'a'.repeat(512 * 1024 + 1) } } }, 413, 'PAYLOAD_TOO_LARGE'],
    ['a body far over the size limit', { json: { task_type: 'summarize', input: { text: 'a'.repeat(3 * 1024 * 1024) } } }, 413, 'PAYLOAD_TOO_LARGE'],
  ];

  it.each(cases)('answers %s with the error body', async (_name, init, status, code) => {
    const response = await http(tasksUrl, { method: 'POST', ...init, headers: { ...bearer(key), ...(init.headers as Record<string, string>) } });
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error: { code, message: expect.any(String), request_id: response.headers.get('x-request-id') } });
    expect(response.body.error.message).not.toMatch(/at .*\.(js|ts):\d+/);
  });

  it('accepts a text of exactly the size limit', async () => {
    const response = await createTask({ task_type: 'summarize', input: { text: `${'word '.repeat(104857)}end.`.slice(0, 512 * 1024) } });
    expect(response.status).toBe(202);
  });
});

describe('GET /v1/ai/tasks/{task_id}', () => {
  it('answers 404 NOT_FOUND for an unknown task id', async () => {
    const response = await http(`${tasksUrl}/task_01JAAAAAAAAAAAAAAAAAAAAAAA`, { headers: bearer(key) });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });

  it('answers 404 for something that is not a task id', async () => {
    const response = await http(`${tasksUrl}/..%2F..%2Fetc`, { headers: bearer(key) });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });

  it("answers 404 for another organisation's task", async () => {
    const other = await harness.issueKey('globex', 'test');
    const created = await createTask({ task_type: 'summarize', input: { text: ARTICLE } });
    const response = await http(`${tasksUrl}/${created.body.id}`, { headers: bearer(other.key) });
    expect(response.status).toBe(404);
  });

  it('keeps the sandbox and production apart in both directions', async () => {
    const live = await harness.issueKey('acme', 'live');
    const sandboxTask = await createTask({ task_type: 'summarize', input: { text: ARTICLE } });
    const liveTask = await createTask({ task_type: 'summarize', input: { text: ARTICLE } }, {}, live.key);
    expect(liveTask.status).toBe(202);
    expect((await http(`${tasksUrl}/${sandboxTask.body.id}`, { headers: bearer(live.key) })).status).toBe(404);
    expect((await http(`${tasksUrl}/${liveTask.body.id}`, { headers: bearer(key) })).status).toBe(404);
    expect((await pollUntilFinal(liveTask.body.id, live.key)).status).toBe('succeeded');
  });
});

describe('a live key at an API without encryption keys', () => {
  const REFUSED = { status: 503, body: { error: { code: 'ENCRYPTION_REQUIRED' } } };
  let keyless: string;
  let live: string;

  // The API starts while no live key of the organisation exists; the key is issued after.
  beforeAll(async () => {
    keyless = await harness.startApi({ PAYLOAD_ENCRYPTION: 'required' });
    live = (await harness.issueKey('initech', 'live')).key;
  });

  it('is refused a create with 503 ENCRYPTION_REQUIRED, and no task is started', async () => {
    const refused = await http(`${keyless}/v1/ai/tasks`, { method: 'POST', headers: { ...bearer(live), 'idempotency-key': 'first' }, json: { task_type: 'summarize', input: { text: ARTICLE } } });
    expect(refused).toMatchObject(REFUSED);
    expect((await http(`${tasksUrl}/${taskIdForIdempotencyKey('initech', 'first')}`, { headers: bearer(live) })).status).toBe(404);
  });

  it('is refused a read, a list and a cancel of a live task stored in plaintext, which none of them returns', async () => {
    // Stored by the harness's API, told to keep production in plaintext (PAYLOAD_ENCRYPTION=off).
    const created = await createTask({ task_type: 'summarize', input: { text: ARTICLE } }, {}, live);
    const { output } = await pollUntilFinal(created.body.id, live);
    for (const [method, path] of [['GET', `/v1/ai/tasks/${created.body.id}`], ['GET', '/v1/ai/tasks'], ['POST', `/v1/ai/tasks/${created.body.id}/cancel`]]) {
      const response = await http(`${keyless}${path}`, { method, headers: bearer(live) });
      expect(response).toMatchObject(REFUSED);
      expect(JSON.stringify(response.body)).not.toContain(output.summary);
    }
  });
});

describe('authentication', () => {
  const unauthorized: Array<[string, Record<string, string>]> = [
    ['no Authorization header', {}],
    ['a Basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a malformed key', { authorization: 'Bearer not-a-key' }],
    ['an unknown key of the right shape', { authorization: 'Bearer assay_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
  ];

  it.each(unauthorized)('answers 401 UNAUTHORIZED for %s', async (_name, headers) => {
    const response = await http(`${tasksUrl}/task_01JAAAAAAAAAAAAAAAAAAAAAAA`, { headers });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('UNAUTHORIZED');
    expect(response.body.error.request_id).toBe(response.headers.get('x-request-id'));
  });

  it('refuses a revoked key within the cache lifetime', async () => {
    const issued = await harness.issueKey('acme', 'test');
    expect((await createTask({ task_type: 'summarize', input: { text: ARTICLE } }, {}, issued.key)).status).toBe(202);
    await harness.revokeKey(issued.id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const response = await createTask({ task_type: 'summarize', input: { text: ARTICLE } }, {}, issued.key);
    expect(response.status).toBe(401);
  });

  it('refuses a key whose environment prefix was altered', async () => {
    const issued = await harness.issueKey('acme', 'test');
    const altered = issued.key.replace('_test_', '_live_');
    const response = await http(`${tasksUrl}/task_01JAAAAAAAAAAAAAAAAAAAAAAA`, { headers: bearer(altered) });
    expect(response.status).toBe(401);
  });
});

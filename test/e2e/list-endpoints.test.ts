import { AssayHarness } from '../support/assay-harness';
import { TINY_GRAPH } from '../support/graphs';
import { bearer, http } from '../support/http';

let harness: AssayHarness;
let acme: string;
let globex: string;
let acmeLive: string;
const acmeTaskIds: string[] = [];

const TEXT = 'The committee met on Monday. It approved the budget. The vote was close.';

beforeAll(async () => {
  harness = await AssayHarness.start();
  acme = (await harness.issueKey('acme', 'test')).key;
  globex = (await harness.issueKey('globex', 'test')).key;
  acmeLive = (await harness.issueKey('acme', 'live')).key;
  for (let i = 0; i < 5; i++) acmeTaskIds.push((await createTask(acme)).id);
  await createTask(globex);
  await createTask(acmeLive);
  await Promise.all(acmeTaskIds.map((id) => waitUntilFinal(id)));
});

afterAll(async () => {
  await harness?.stop();
});

async function createTask(key: string): Promise<{ id: string }> {
  const response = await http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: { task_type: 'summarize', input: { text: TEXT } } });
  expect(response.status).toBe(202);
  return response.body;
}

async function waitUntilFinal(id: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { body } = await http(`${harness.baseUrl}/v1/ai/tasks/${id}`, { headers: bearer(acme) });
    if (body.status === 'succeeded' || body.status === 'failed') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`task ${id} never finished`);
}

/** Visibility is updated asynchronously after a workflow changes; wait until it shows what we expect. */
async function listUntil(path: string, key: string, done: (body: any) => boolean): Promise<any> {
  let last: any;
  for (let i = 0; i < 50; i++) {
    const response = await http(`${harness.baseUrl}${path}`, { headers: bearer(key) });
    expect(response.status).toBe(200);
    last = response.body;
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return last;
}

describe('GET /v1/ai/tasks', () => {
  it("lists the caller's own tasks as GET shows them", async () => {
    const body = await listUntil('/v1/ai/tasks?limit=100', acme, (page) => page.data.length === 5);
    expect(body.data.map((task: any) => task.id).sort()).toEqual([...acmeTaskIds].sort());
    expect(body.data[0]).toMatchObject({ task_type: 'summarize', status: 'succeeded', output: { summary: expect.any(String) } });
    expect(body).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('pages with limit and an opaque cursor until has_more is false', async () => {
    const all = await listUntil('/v1/ai/tasks?limit=100', acme, (page) => page.data.length === 5);
    const seen: string[] = [];
    let path = '/v1/ai/tasks?limit=2';
    for (let pages = 0; pages < 5; pages++) {
      const { body } = await http(`${harness.baseUrl}${path}`, { headers: bearer(acme) });
      seen.push(...body.data.map((task: any) => task.id));
      if (!body.has_more) break;
      expect(body.next_cursor).toEqual(expect.any(String));
      path = `/v1/ai/tasks?limit=2&cursor=${encodeURIComponent(body.next_cursor)}`;
    }
    expect(seen).toEqual(all.data.map((task: any) => task.id));
  });

  it('never shows another organisation or environment', async () => {
    const forGlobex = await listUntil('/v1/ai/tasks', globex, (page) => page.data.length === 1);
    expect(forGlobex.data).toHaveLength(1);
    expect(acmeTaskIds).not.toContain(forGlobex.data[0].id);
    const forLive = await listUntil('/v1/ai/tasks', acmeLive, (page) => page.data.length === 1);
    expect(forLive.data).toHaveLength(1);
    expect(acmeTaskIds).not.toContain(forLive.data[0].id);
  });

  it('filters by status and by creation time', async () => {
    const succeeded = await listUntil('/v1/ai/tasks?status=succeeded&limit=100', acme, (page) => page.data.length === 5);
    expect(succeeded.data).toHaveLength(5);
    expect((await http(`${harness.baseUrl}/v1/ai/tasks?status=failed`, { headers: bearer(acme) })).body.data).toEqual([]);
    expect((await http(`${harness.baseUrl}/v1/ai/tasks?status=running`, { headers: bearer(acme) })).body.data).toEqual([]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await http(`${harness.baseUrl}/v1/ai/tasks?created_after=${future}`, { headers: bearer(acme) })).body.data).toEqual([]);
    const before = await http(`${harness.baseUrl}/v1/ai/tasks?created_before=${future}&limit=100`, { headers: bearer(acme) });
    expect(before.body.data).toHaveLength(5);
  });

  it.each([
    ['limit=0'],
    ['limit=101'],
    ['limit=ten'],
    ['status=done'],
    ['created_after=yesterday'],
    ['sort=asc'],
    ['cursor=not-a-cursor'],
  ])('answers 400 INVALID_REQUEST for %s', async (query) => {
    const response = await http(`${harness.baseUrl}/v1/ai/tasks?${query}`, { headers: bearer(acme) });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_REQUEST');
  });

  it('refuses a cursor used with other filters', async () => {
    const { body } = await http(`${harness.baseUrl}/v1/ai/tasks?limit=1`, { headers: bearer(acme) });
    expect(body.has_more).toBe(true);
    const response = await http(`${harness.baseUrl}/v1/ai/tasks?limit=1&status=failed&cursor=${encodeURIComponent(body.next_cursor)}`, { headers: bearer(acme) });
    expect(response.status).toBe(400);
  });
});

/** The cursor with its JSON body (before any `.`) edited and re-encoded, everything after it kept, as a client could. */
function withBodyEdited(cursor: string, edit: (body: Record<string, unknown>) => void): string {
  const [body, ...rest] = cursor.split('.');
  const decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  edit(decoded);
  return [Buffer.from(JSON.stringify(decoded)).toString('base64url'), ...rest].join('.');
}

describe('cursors are authenticated', () => {
  let first: string;
  let second: string;

  beforeAll(async () => {
    await listUntil('/v1/ai/tasks?limit=100', acme, (page) => page.data.length === 5);
    first = (await http(`${harness.baseUrl}/v1/ai/tasks?limit=1`, { headers: bearer(acme) })).body.next_cursor;
    second = (await http(`${harness.baseUrl}/v1/ai/tasks?limit=1&cursor=${encodeURIComponent(first)}`, { headers: bearer(acme) })).body.next_cursor;
    expect([typeof first, typeof second]).toEqual(['string', 'string']);
  });

  async function pageWith(cursor: string) {
    return http(`${harness.baseUrl}/v1/ai/tasks?limit=1&cursor=${encodeURIComponent(cursor)}`, { headers: bearer(acme) });
  }

  it.each([
    ['its position replaced by bytes of the client\'s own', (cursor: string) => withBodyEdited(cursor, (body) => (body.t = Buffer.from('abcdef').toString('base64')))],
    ["its position replaced by another genuine cursor's", (cursor: string) => withBodyEdited(cursor, (body) => (body.t = JSON.parse(Buffer.from(second.split('.')[0], 'base64url').toString('utf8')).t))],
    ['its filter half replaced', (cursor: string) => withBodyEdited(cursor, (body) => (body.q = 'A'.repeat(22)))],
    ['one character of its end changed', (cursor: string) => cursor.slice(0, -1) + (cursor.endsWith('A') ? 'B' : 'A')],
    ['its last two characters cut off', (cursor: string) => cursor.slice(0, -2)],
  ])('answers 400 INVALID_REQUEST, never 500, for a real cursor with %s', async (_how, alter) => {
    const response = await pageWith(alter(first));
    expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    expect(response.body.error.message).toMatch(/^cursor: /);
  });

  it('still pages with the cursors as they came', async () => {
    expect((await pageWith(first)).status).toBe(200);
    expect((await pageWith(second)).status).toBe(200);
  });

  it("refuses the organisation's cursor to another organisation", async () => {
    const response = await http(`${harness.baseUrl}/v1/ai/tasks?limit=1&cursor=${encodeURIComponent(first)}`, { headers: bearer(globex) });
    expect(response.status).toBe(400);
  });
});

describe('GET /v1/network-assessments', () => {
  it("lists the caller's own assessments and filters them by status", async () => {
    const created = await http(`${harness.baseUrl}/v1/network-assessments`, {
      method: 'POST',
      headers: bearer(acme),
      json: { name: 'Tiny', context: 'two boxes', ...TINY_GRAPH },
    });
    expect(created.status).toBe(202);
    const listed = await listUntil('/v1/network-assessments', acme, (page) => page.data.length === 1);
    expect(listed.data.map((item: any) => item.assessment_id)).toEqual([created.body.assessment_id]);
    const submitted = await listUntil('/v1/network-assessments?status=submitted', acme, (page) => page.data.length === 1);
    expect(submitted.data).toHaveLength(1);
    expect((await http(`${harness.baseUrl}/v1/network-assessments?status=completed`, { headers: bearer(acme) })).body.data).toEqual([]);
    expect((await http(`${harness.baseUrl}/v1/network-assessments`, { headers: bearer(globex) })).body.data).toEqual([]);
  });
});

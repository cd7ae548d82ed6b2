import { FAILED_CREDENTIALS_PER_CLIENT } from '../../src/common/credentials/failed-credential-throttle';
import { AssayHarness } from '../support/assay-harness';
import { bearer, http } from '../support/http';
import { SUMMARIZE_TASK } from '../support/tasks';

/** The console's session at the HTTP level: what a browser's cookie may and may not do. */
let harness: AssayHarness;
let customer: { id: string; key: string };
let reviewer: { id: string; credential: string };

beforeAll(async () => {
  harness = await AssayHarness.start({ worker: false });
  customer = await harness.issueKey('acme', 'test');
  reviewer = await harness.addReviewer('alice');
});

afterAll(async () => {
  await harness?.stop();
});

interface Session {
  cookie: string;
  csrf: string;
  setCookie: string;
  body: any;
}

async function signIn(credential: string): Promise<Session> {
  const response = await http(`${harness.baseUrl}/console/session`, { method: 'POST', json: { credential } });
  expect(response.status).toBe(201);
  const setCookie = response.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0], csrf: response.body.csrf_token, setCookie, body: response.body };
}

function withSession(session: Session, path: string, init: { method?: string; json?: unknown; csrf?: string; origin?: string } = {}) {
  const headers: Record<string, string> = { cookie: session.cookie };
  if (init.csrf !== undefined) headers['x-csrf-token'] = init.csrf;
  if (init.origin !== undefined) headers.origin = init.origin;
  return http(`${harness.baseUrl}${path}`, { method: init.method ?? 'GET', headers, json: init.json });
}

describe('signing in', () => {
  it('exchanges an API key for an HttpOnly, SameSite=Strict cookie that holds no key, and answers who it is', async () => {
    const session = await signIn(customer.key);
    expect(session.setCookie).toMatch(/^assay_console=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=28800$/);
    expect(session.setCookie).not.toContain(customer.key);
    expect(session.body).toEqual({ kind: 'customer', organization_id: 'acme', environment: 'test', csrf_token: expect.any(String) });
    const current = await withSession(session, '/console/session');
    expect(current.body).toMatchObject({ kind: 'customer', organization_id: 'acme' });
    expect(current.body.csrf_token).not.toBe(session.csrf);
  });

  it('refuses an unknown credential, a malformed body and another origin', async () => {
    expect(await http(`${harness.baseUrl}/console/session`, { method: 'POST', json: { credential: 'assay_test_nope' } })).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHORIZED' } } });
    expect(await http(`${harness.baseUrl}/console/session`, { method: 'POST', json: { key: customer.key } })).toMatchObject({ status: 400, body: { error: { code: 'INVALID_REQUEST' } } });
    const crossSite = await http(`${harness.baseUrl}/console/session`, { method: 'POST', headers: { origin: 'https://evil.example' }, json: { credential: customer.key } });
    expect(crossSite).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
  });

  it('answers 204 to a page that is not signed in', async () => {
    expect((await http(`${harness.baseUrl}/console/session`)).status).toBe(204);
    expect((await http(`${harness.baseUrl}/console/session`, { headers: { cookie: 'assay_console=forged' } })).status).toBe(204);
  });
});

describe('a customer session', () => {
  it('reads with the cookie alone, and changes only with the session CSRF token', async () => {
    const session = await signIn(customer.key);
    expect((await withSession(session, '/v1/ai/tasks')).status).toBe(200);
    expect(await withSession(session, '/v1/ai/tasks', { method: 'POST', json: SUMMARIZE_TASK })).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    expect(await withSession(session, '/v1/ai/tasks', { method: 'POST', json: SUMMARIZE_TASK, csrf: 'wrong' })).toMatchObject({ status: 403 });
    expect((await withSession(session, '/v1/ai/tasks', { method: 'POST', json: SUMMARIZE_TASK, csrf: session.csrf })).status).toBe(202);
  });

  it('cannot review', async () => {
    const session = await signIn(customer.key);
    expect(await withSession(session, '/v1/review/assessments')).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
  });

  it('ends when its key is revoked, and on sign-out', async () => {
    const key = await harness.issueKey('acme', 'test');
    const session = await signIn(key.key);
    await harness.revokeKey(key.id);
    expect(await withSession(session, '/v1/ai/tasks')).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHORIZED' } } });

    const other = await signIn(customer.key);
    expect((await withSession(other, '/console/session', { method: 'DELETE' })).status).toBe(403);
    const out = await withSession(other, '/console/session', { method: 'DELETE', csrf: other.csrf });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^assay_console=; .*Max-Age=0/);
    expect((await withSession(other, '/v1/ai/tasks')).status).toBe(401);
  });

  it('gives way to an Authorization header, which decides alone', async () => {
    const session = await signIn(customer.key);
    const response = await http(`${harness.baseUrl}/v1/ai/tasks`, { headers: { cookie: session.cookie, ...bearer('assay_test_invalid') } });
    expect(response.status).toBe(401);
  });
});

describe('a reviewer session', () => {
  it('reviews, as the reviewer whose credential opened it, and nothing else', async () => {
    const session = await signIn(reviewer.credential);
    expect(session.body).toEqual({ kind: 'reviewer', name: 'alice', environment: 'test', csrf_token: expect.any(String) });
    expect(await withSession(session, '/v1/review/me')).toMatchObject({ status: 200, body: { name: 'alice' } });
    expect(await withSession(session, '/v1/ai/tasks')).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    await (await harness.reviewerService()).revoke(reviewer.id);
    expect((await withSession(session, '/v1/review/me')).status).toBe(401);
  });
});

describe('the page', () => {
  it('is served under a strict Content-Security-Policy with its assets from the same origin', async () => {
    const page = await http(`${harness.baseUrl}/console`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.body).not.toMatch(/https?:\/\//);
    for (const [asset, type] of [['app.js', 'text/javascript'], ['app.css', 'text/css'], ['favicon.svg', 'image/svg+xml']]) {
      const response = await fetch(`${harness.baseUrl}/console/assets/${asset}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain(type);
    }
    expect((await http(`${harness.baseUrl}/console/assets/nothing.js`)).status).toBe(404);
  });
});

describe('failed sign-ins', () => {
  it('are throttled per client: past a burst, 429 with Retry-After before a made-up credential is looked at, while a real one still signs in', async () => {
    // Alice's credential was revoked above: a reviewer of its own, issued before the throttle starts.
    const bob = await harness.addReviewer('bob');
    const attempt = () => http(`${harness.baseUrl}/console/session`, { method: 'POST', json: { credential: `${customer.key.slice(0, -4)}abcd` } });
    const statuses = [];
    for (let i = 0; i < FAILED_CREDENTIALS_PER_CLIENT.burst + 3; i++) statuses.push((await attempt()).status);
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(FAILED_CREDENTIALS_PER_CLIENT.burst);
    const throttled = await attempt();
    expect(throttled.status).toBe(429);
    expect(throttled.body.error.code).toBe('RATE_LIMITED');
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await signIn(bob.credential);
  });
});

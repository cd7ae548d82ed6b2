import { ApiWithoutTemporal } from '../support/api-without-temporal';
import { CapturedLog } from '../support/captured-log';
import { http } from '../support/http';

/**
 * TRUST_PROXY at the HTTP level: what X-Forwarded-* a request carries changes the console's Origin
 * check, its cookie and the request log only when the peer is a trusted proxy. The same headers
 * from anyone else change nothing. (test/browser/behind-proxy.test.ts signs in through nginx.)
 */

/** What a TLS-terminating proxy adds to a browser's request for https://assay.example.com. */
const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'assay.example.com', 'x-forwarded-for': '203.0.113.7' };
const PROXIED_ORIGIN = 'https://assay.example.com';

interface Started {
  api: ApiWithoutTemporal;
  log: CapturedLog;
  key: string;
}

const started: Started[] = [];

afterAll(async () => {
  await Promise.all(started.map(({ api }) => api.stop()));
});

async function startApi(env: Record<string, string>): Promise<Started> {
  const log = new CapturedLog();
  const api = await ApiWithoutTemporal.start({ LOG_LEVEL: 'info', ...env }, { logDestination: log.destination });
  const run = { api, log, key: (await api.issueKey('acme', 'test')).key };
  started.push(run);
  return run;
}

function signIn(run: Started, headers: Record<string, string>) {
  return http(`${run.api.baseUrl}/console/session`, { method: 'POST', headers, json: { credential: run.key } });
}

/** Who the request log says sent the request to /console/session last, and to which host. */
function loggedClient(log: CapturedLog): { remoteAddress: string; host: string } {
  const incoming = log.entries().filter((entry) => entry.msg === 'incoming request' && entry.req?.url === '/console/session');
  return incoming[incoming.length - 1].req;
}

describe.each([
  ['unset', {}],
  ['a list without the peer', { TRUST_PROXY: '10.0.0.0/8, 192.168.1.7' }],
])('with TRUST_PROXY %s, forwarded headers are ignored everywhere', (_name, env: Record<string, string>) => {
  let run: Started;
  let directOrigin: string;

  beforeAll(async () => {
    run = await startApi(env);
    directOrigin = new URL(run.api.baseUrl).origin;
  });

  it("checks Origin against the connection's own scheme and host", async () => {
    const refused = await signIn(run, { ...FORWARDED, origin: PROXIED_ORIGIN });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN', message: 'The console session is only for pages of this origin' } } });
    expect((await signIn(run, { ...FORWARDED, origin: directOrigin })).status).toBe(201);
  });

  it('sets the plain-HTTP cookie, unprefixed and without Secure, and reads that one', async () => {
    const signedIn = await signIn(run, FORWARDED);
    const setCookie = signedIn.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^assay_console=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=28800$/);
    const cookie = setCookie.split(';')[0];
    expect((await http(`${run.api.baseUrl}/console/session`, { headers: { ...FORWARDED, cookie } })).status).toBe(200);
    expect((await http(`${run.api.baseUrl}/console/session`, { headers: { ...FORWARDED, cookie: `__Host-${cookie}` } })).status).toBe(204);
  });

  it('logs the socket address and the Host header', async () => {
    await signIn(run, FORWARDED);
    expect(loggedClient(run.log)).toMatchObject({ remoteAddress: '127.0.0.1', host: new URL(run.api.baseUrl).host });
  });
});

describe.each([
  ['a hop count', { TRUST_PROXY: '1' }],
  ['a list with loopback', { TRUST_PROXY: '10.0.0.0/8,loopback' }],
])('with TRUST_PROXY %s, the proxy says how the browser came', (_name, env: Record<string, string>) => {
  let run: Started;

  beforeAll(async () => {
    run = await startApi(env);
  });

  it("checks Origin against the forwarded scheme and host, and the connection's own when nothing is forwarded", async () => {
    expect((await signIn(run, { ...FORWARDED, origin: PROXIED_ORIGIN })).status).toBe(201);
    expect((await signIn(run, { ...FORWARDED, origin: 'https://evil.example' })).status).toBe(403);
    expect((await signIn(run, { origin: new URL(run.api.baseUrl).origin })).status).toBe(201);
  });

  it('sets a __Host- prefixed, Secure cookie over forwarded HTTPS, which only HTTPS requests read', async () => {
    const signedIn = await signIn(run, { ...FORWARDED, origin: PROXIED_ORIGIN });
    const setCookie = signedIn.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^__Host-assay_console=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=28800; Secure$/);
    const cookie = setCookie.split(';')[0];
    expect((await http(`${run.api.baseUrl}/console/session`, { headers: { ...FORWARDED, cookie } })).status).toBe(200);
    expect((await http(`${run.api.baseUrl}/console/session`, { headers: { cookie } })).status).toBe(204);
  });

  it("logs the browser's address and the host it asked for", async () => {
    await signIn(run, FORWARDED);
    expect(loggedClient(run.log)).toMatchObject({ remoteAddress: '203.0.113.7', host: 'assay.example.com' });
  });
});

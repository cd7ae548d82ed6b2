import { execFile } from 'node:child_process';
import type * as http from 'node:http';
import { promisify } from 'node:util';
import { createCodecServer } from '../../../src/codec/codec-server';
import { EncryptedPayloadCodec } from '../../../src/common/crypto/encrypted-payload-codec';
import { generateEncryptionKeyEntry } from '../../../src/common/crypto/encryption-keys';
import { FAILED_CREDENTIALS_PER_CLIENT } from '../../../src/common/credentials/failed-credential-throttle';
import { taskWorkflowId } from '../../../src/contract';
import { resolveTemporalCli } from '../../../src/embedded/temporal-cli';
import { AssayHarness } from '../../support/assay-harness';
import { bearer, http as request } from '../../support/http';
import { listenOnLoopback } from '../../support/loopback-server';

const CREDENTIAL = 'operator-credential-0123456789abcdef0123456789';
const UI_ORIGIN = 'http://localhost:8233';

let harness: AssayHarness;
let server: http.Server;
let endpoint: string;
let key: string;

beforeAll(async () => {
  harness = await AssayHarness.start({ env: { PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('codec') } });
  key = (await harness.issueKey('acme', 'test')).key;
  server = createCodecServer(new EncryptedPayloadCodec(harness.config.keyRing!), { credential: CREDENTIAL, allowedOrigins: [UI_ORIGIN], trustProxy: false });
  endpoint = `http://127.0.0.1:${await listenOnLoopback(server)}/codec`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await harness?.stop();
});

const PLAIN = { metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: Buffer.from('"secret text"').toString('base64') };

/** The sign-in form as the page posts it. */
function signIn(credential: string, headers: Record<string, string> = {}, at = endpoint): Promise<Response> {
  const body = new URLSearchParams({ credential }).toString();
  return fetch(`${at}/sign-in`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
}

/** What a TLS-terminating proxy adds to a browser's request for https://codec.example.com, and the form's Origin there. */
const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'codec.example.com', 'x-forwarded-for': '203.0.113.7' };
const BEHIND_PROXY = { ...FORWARDED, origin: 'https://codec.example.com' };

async function finishedTask(text: string): Promise<string> {
  const created = await request(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: { ...bearer(key), prefer: 'wait=30' }, json: { task_type: 'summarize', input: { text } } });
  expect(created.body.status).toBe('succeeded');
  return created.body.id;
}

/**
 * `temporal workflow show` as an operator runs it, with the codec endpoint and, if given, the
 * credential: its JSON output with every payload's data (base64 there) decoded beside it.
 */
async function show(taskId: string, codecAuth?: string): Promise<string> {
  const args = ['workflow', 'show', '--address', harness.temporal.address, '--namespace', harness.config.values.TEMPORAL_NAMESPACE_SANDBOX];
  args.push('--workflow-id', taskWorkflowId('acme', taskId), '--output', 'json', '--codec-endpoint', endpoint);
  if (codecAuth) args.push('--codec-auth', codecAuth);
  const { stdout } = await promisify(execFile)(resolveTemporalCli(), args, { maxBuffer: 16 * 1024 * 1024 });
  const data = [...stdout.matchAll(/"data": "([A-Za-z0-9+/=]*)"/g)].map((match) => Buffer.from(match[1], 'base64').toString('utf8'));
  return [stdout, ...data].join('\n');
}

describe('the codec endpoint', () => {
  it('lets `temporal workflow show --codec-auth` read the task in plaintext, and nobody without the credential', async () => {
    const marker = `marker-${Date.now().toString(36)}-codec`;
    const taskId = await finishedTask(`${marker} is in the text. The council approved the plan.`);
    expect(await show(taskId, `Bearer ${CREDENTIAL}`)).toContain(marker);
    // The CLI retries the codec's 401 until its deadline and fails; the text is in nothing it showed.
    const refused = await show(taskId, 'Bearer wrong-credential-0123456789abcdef0123456789').catch((error: Error) => error.message);
    expect(refused).toContain('Command failed');
    expect(refused).not.toContain(marker);
  });

  it('answers the remote codec protocol: decode what encode made, 401 without the credential', async () => {
    const auth = { authorization: `Bearer ${CREDENTIAL}` };
    const encoded = await request(`${endpoint}/encode`, { method: 'POST', headers: auth, json: { payloads: [PLAIN] } });
    expect(encoded.status).toBe(200);
    expect(Buffer.from(encoded.body.payloads[0].metadata.encoding, 'base64').toString()).toBe('binary/encrypted');
    expect(Buffer.from(encoded.body.payloads[0].data, 'base64').toString()).not.toContain('secret text');
    const decoded = await request(`${endpoint}/decode`, { method: 'POST', headers: auth, json: encoded.body });
    expect(decoded.body).toEqual({ payloads: [PLAIN] });

    const anonymous = await request(`${endpoint}/decode`, { method: 'POST', json: encoded.body });
    expect(anonymous.status).toBe(401);
    expect(JSON.stringify(anonymous.body)).not.toContain('secret text');
    expect((await request(`${endpoint}/decode`, { method: 'POST', headers: auth, body: '{"payloads": 3' })).status).toBe(400);
    expect((await request(`${endpoint}/decode`, { headers: auth })).status).toBe(405);
    expect((await request(`${endpoint}/other`, { method: 'POST', headers: auth, json: {} })).status).toBe(404);
  });

  it('signs a browser in with the credential typed into its page: a 12-hour HttpOnly SameSite=Strict cookie, not the credential, that the protocol accepts', async () => {
    const page = await fetch(`${endpoint}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe("default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
    const form = await page.text();
    expect(form).toContain('<form method="post" action="/codec/sign-in">');
    expect(form).toContain('name="credential" type="password"');
    expect(form).not.toContain('<script');

    const refused = await signIn('not-the-operator-credential-0123456789abcdef');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect(await refused.text()).toContain('That is not the operator credential.');

    // Pasted with the newline `cat` leaves.
    const signedIn = await signIn(`${CREDENTIAL}\n`);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/codec/');
    const setCookie = signedIn.headers.get('set-cookie') ?? '';
    expect(setCookie.split('; ').slice(1)).toEqual(['Path=/codec', 'HttpOnly', 'SameSite=Strict', 'Max-Age=43200']);
    const cookie = setCookie.split(';')[0];
    expect(cookie).toMatch(/^assay_codec=\d+\.[\w-]{43}$/);
    expect(cookie).not.toContain(CREDENTIAL.slice(0, 12));

    expect(await (await fetch(`${endpoint}/`, { headers: { cookie } })).text()).toMatch(/signed in until \d{4}-/);
    const encoded = await request(`${endpoint}/encode`, { method: 'POST', headers: { cookie, origin: UI_ORIGIN }, json: { payloads: [PLAIN] } });
    expect(encoded.status).toBe(200);
    expect(encoded.headers.get('access-control-allow-credentials')).toBe('true');
    expect((await request(`${endpoint}/decode`, { method: 'POST', headers: { cookie }, json: encoded.body })).body).toEqual({ payloads: [PLAIN] });

    const forged = cookie.replace(/=(\d+)\./, (_, expires: string) => `=${Number(expires) + 3600}.`);
    expect((await request(`${endpoint}/decode`, { method: 'POST', headers: { cookie: forged }, json: encoded.body })).status).toBe(401);

    const signedOut = await fetch(`${endpoint}/sign-out`, { method: 'POST', redirect: 'manual', headers: { cookie } });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('set-cookie')).toBe('assay_codec=; Path=/codec; HttpOnly; SameSite=Strict; Max-Age=0');
    expect((await signIn(CREDENTIAL, { origin: UI_ORIGIN })).status).toBe(403);
    expect((await request(`${endpoint}/sign-in`)).status).toBe(405);
    expect((await request(`${endpoint}/`, { method: 'POST' })).status).toBe(405);
  });

  it('ignores forwarded headers without TRUST_PROXY: the origin and cookie are those of the plain-HTTP connection', async () => {
    expect((await signIn(CREDENTIAL, BEHIND_PROXY)).status).toBe(403);
    expect((await signIn(CREDENTIAL, FORWARDED)).headers.get('set-cookie')).toMatch(/^assay_codec=\S+; Path=\/codec; HttpOnly; SameSite=Strict; Max-Age=43200$/);
  });

  it('believes a trusted proxy’s scheme and host: a __Host- prefixed, Secure cookie that only HTTPS requests read', async () => {
    const proxied = createCodecServer(new EncryptedPayloadCodec(harness.config.keyRing!), { credential: CREDENTIAL, allowedOrigins: [UI_ORIGIN], trustProxy: ['loopback'] });
    const behind = `http://127.0.0.1:${await listenOnLoopback(proxied)}/codec`;
    try {
      const signedIn = await signIn(CREDENTIAL, BEHIND_PROXY, behind);
      expect(signedIn.status).toBe(303);
      const setCookie = signedIn.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(/^__Host-assay_codec=\d+\.[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200; Secure$/);
      const cookie = setCookie.split(';')[0];
      const decode = (headers: Record<string, string>) => request(`${behind}/decode`, { method: 'POST', headers: { cookie, ...headers }, json: { payloads: [] } });
      expect((await decode({ 'x-forwarded-proto': 'https' })).status).toBe(200);
      expect((await decode({})).status).toBe(401);
      expect((await signIn(CREDENTIAL, { ...BEHIND_PROXY, origin: 'https://evil.example' }, behind)).status).toBe(403);
      const signedOut = await fetch(`${behind}/sign-out`, { method: 'POST', redirect: 'manual', headers: { cookie, ...BEHIND_PROXY } });
      expect(signedOut.headers.get('set-cookie')).toBe('__Host-assay_codec=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure');
    } finally {
      await new Promise((resolve) => proxied.close(resolve));
    }
  });

  it('throttles failed credentials per client: past a burst, 429 with Retry-After on the protocol and the sign-in form, for the right credential too', async () => {
    const throttled = createCodecServer(new EncryptedPayloadCodec(harness.config.keyRing!), { credential: CREDENTIAL, allowedOrigins: [UI_ORIGIN], trustProxy: true });
    const at = `http://127.0.0.1:${await listenOnLoopback(throttled)}/codec`;
    try {
      const decode = (credential: string, headers: Record<string, string> = {}) =>
        request(`${at}/decode`, { method: 'POST', headers: { authorization: `Bearer ${credential}`, ...headers }, json: { payloads: [] } });
      const statuses = [];
      for (let i = 0; i < FAILED_CREDENTIALS_PER_CLIENT.burst + 5; i++) statuses.push((await decode(`guess-${i}`)).status);
      expect(statuses).toEqual([...Array(FAILED_CREDENTIALS_PER_CLIENT.burst).fill(401), ...Array(5).fill(429)]);
      const right = await decode(CREDENTIAL);
      expect(right.status).toBe(429);
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const form = await signIn(CREDENTIAL, {}, at);
      expect(form.status).toBe(429);
      expect(await form.text()).toContain('Too many failed sign-ins');
      // Another client, as a trusted proxy forwards it, has its own count.
      expect((await decode(CREDENTIAL, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(200);
    } finally {
      await new Promise((resolve) => throttled.close(resolve));
    }
  });

  it('answers the UI origin’s CORS preflight, and no other origin', async () => {
    const preflight = (origin: string) =>
      request(`${endpoint}/decode`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, x-namespace' } });
    const allowed = await preflight(UI_ORIGIN);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(UI_ORIGIN);
    expect(allowed.headers.get('access-control-allow-headers')).toContain('authorization');
    expect((await preflight('http://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });
});

import type * as http from 'node:http';
import type { Cookie } from 'playwright-core';
import { createCodecServer } from '../../src/codec/codec-server';
import { EncryptedPayloadCodec } from '../../src/common/crypto/encrypted-payload-codec';
import { generateEncryptionKeyEntry } from '../../src/common/crypto/encryption-keys';
import { AssayHarness } from '../support/assay-harness';
import { CapturedLog } from '../support/captured-log';
import { listenOnLoopback } from '../support/loopback-server';
import { startReverseProxy, type ReverseProxy } from '../support/reverse-proxy';
import { makeTestCertificates, type TestCertificates } from '../support/test-certificates';
import { openBrowser, type Browser } from './chromium';
import { signInAtCodec } from './temporal-ui-codec';

/**
 * A deployment as it runs: nginx terminates TLS in front of the API and the codec endpoint, both
 * with TRUST_PROXY naming it, and a real browser signs in to both consoles and the codec over
 * HTTPS. The browser trusts the test's certificate and nothing else.
 */

const CREDENTIAL = 'operator-credential-0123456789abcdef0123456789';
const TRUST_PROXY = 'loopback';

let certificates: TestCertificates;
let harness: AssayHarness;
let codec: http.Server;
let proxy: ReverseProxy;
let browser: Browser;
let consoleUrl: string;
let codecUrl: string;
let customerKey: string;
let reviewerCredential: string;
const apiLog = new CapturedLog();

beforeAll(async () => {
  certificates = await makeTestCertificates();
  harness = await AssayHarness.start({
    worker: false,
    logDestination: apiLog.destination,
    env: { TRUST_PROXY, LOG_LEVEL: 'info', PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('proxy') },
  });
  customerKey = (await harness.issueKey('acme', 'test')).key;
  reviewerCredential = (await harness.addReviewer('alice')).credential;
  codec = createCodecServer(new EncryptedPayloadCodec(harness.config.keyRing!), { credential: CREDENTIAL, allowedOrigins: [], trustProxy: harness.config.values.TRUST_PROXY });
  const codecUpstream = `http://127.0.0.1:${await listenOnLoopback(codec)}`;
  proxy = await startReverseProxy([harness.baseUrl, codecUpstream], certificates.server);
  [consoleUrl, codecUrl] = proxy.urls;
  browser = await openBrowser({ trustCertificate: certificates.server.cert });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await proxy?.stop();
  if (codec) await new Promise((resolve) => codec.close(resolve));
  await harness?.stop();
  certificates?.remove();
});

async function signInToConsole(credential: string): Promise<void> {
  const { page } = browser;
  await page.goto(`${consoleUrl}/console`);
  await page.getByLabel('API key or reviewer credential').fill(credential);
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

async function signOutOfConsole(): Promise<void> {
  await browser.page.getByRole('button', { name: 'Sign out' }).click();
  await browser.page.getByLabel('API key or reviewer credential').waitFor();
}

async function cookieNamed(name: string): Promise<Cookie | undefined> {
  return (await browser.page.context().cookies()).find((cookie) => cookie.name === name);
}

/** What a session cookie served over HTTPS must be: `__Host-` prefixed, so Secure, for the whole host and no other. */
const HOST_ONLY_SECURE = { domain: 'localhost', path: '/', secure: true, httpOnly: true, sameSite: 'Strict' };

describe('behind a TLS-terminating nginx, with TRUST_PROXY naming it', () => {
  it('signs a reviewer in to the review console over https with a __Host- prefixed, Secure cookie', async () => {
    await signInToConsole(reviewerCredential);
    expect(await browser.page.locator('.who').innerText()).toBe('Reviewer alice · sandbox');
    expect(await cookieNamed('__Host-assay_console')).toMatchObject(HOST_ONLY_SECURE);
    expect(await cookieNamed('assay_console')).toBeUndefined();
    await signOutOfConsole();
    expect(await cookieNamed('__Host-assay_console')).toBeUndefined();
  });

  it('signs a customer in to the developer console, whose creates answer a Location the browser follows through the proxy', async () => {
    await signInToConsole(customerKey);
    const { page } = browser;
    expect(await page.locator('.who').innerText()).toBe('Organisation acme · sandbox');
    expect(await cookieNamed('__Host-assay_console')).toMatchObject(HOST_ONLY_SECURE);
    const created = await page.evaluate(async () => {
      const session = (await (await fetch('/console/session')).json()) as { csrf_token: string };
      const headers = { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token };
      const response = await fetch('/v1/ai/tasks', { method: 'POST', headers, body: JSON.stringify({ task_type: 'summarize', input: { text: 'The council approved the plan.' } }) });
      const location = response.headers.get('location') ?? '';
      return { status: response.status, location, followed: (await fetch(location)).status };
    });
    expect(created).toMatchObject({ status: 202, location: expect.stringMatching(/^\/v1\/ai\/tasks\/\S+$/), followed: 200 });
    // The session's CSRF token was renewed above, behind the page's back: a reload gets it the new one.
    await page.reload();
    await signOutOfConsole();
    expect(await cookieNamed('__Host-assay_console')).toBeUndefined();
  });

  it('logs the host the browser asked for, which only the proxy forwarded', () => {
    const signIns = apiLog.entries().filter((entry) => entry.msg === 'incoming request' && entry.req?.url === '/console/session');
    expect(signIns.length).toBeGreaterThan(0);
    expect(signIns.map((entry) => entry.req.host)).toEqual(signIns.map(() => new URL(consoleUrl).host));
  });

  // The page after the sign-in's redirect says "signed in until" only if the codec read the cookie back.
  it('signs an operator in at the codec over https with a __Host- prefixed, Secure cookie', async () => {
    await signInAtCodec(browser.page, `${codecUrl}/codec`, CREDENTIAL);
    expect(await cookieNamed('__Host-assay_codec')).toMatchObject(HOST_ONLY_SECURE);
    expect(await cookieNamed('assay_codec')).toBeUndefined();
    expect(browser.consoleErrors).toEqual([]);
  });
});

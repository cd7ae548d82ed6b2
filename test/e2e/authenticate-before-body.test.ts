import { API_KEYS } from '../../src/common/keys/api-key';
import { REVIEWER_CREDENTIALS } from '../../src/common/reviewers/reviewer-credential';
import { MAX_BODY_READ_WHEN_REFUSED } from '../../src/api/platform/http/unread-body';
import { ApiWithoutTemporal } from '../support/api-without-temporal';
import { requestBytes, sendRaw } from '../support/raw-http';
import { errorOf } from '../support/raw-error-body';

// A caller without a valid credential is answered when its headers arrive: before, its whole
// body (up to 32 MiB on a batch) was read and parsed first, and 16 such callers made the API hold
// half a gigabyte.

const MiB = 1024 * 1024;
const DECLARED = 30 * MiB;
const SENT = 1024;

let api: ApiWithoutTemporal;
let realKey: string;

beforeAll(async () => {
  api = await ApiWithoutTemporal.start();
  realKey = (await api.issueKey('acme', 'test')).key;
});

afterAll(async () => {
  await api?.stop();
});

const port = () => Number(new URL(api.baseUrl).port);

/** The head of a POST declaring `declared` bytes, and the first `sent` of them: the rest never comes. */
function startedPost(route: string, authorization: string | undefined, declared: number, sent: number): Buffer {
  const headers: Array<[string, string]> = [['Content-Type', 'application/json'], ['Content-Length', String(declared)]];
  if (authorization !== undefined) headers.push(['Authorization', authorization]);
  const head = requestBytes({ method: 'POST', target: route, headers });
  return Buffer.concat([head, Buffer.alloc(sent, 'a')]);
}

describe('a credential is checked before the body is read', () => {
  it.each([
    ['/v1/ai/tasks', 'no credential', undefined, 'UNAUTHORIZED'],
    ['/v1/ai/batches', 'no credential', undefined, 'UNAUTHORIZED'],
    ['/v1/ai/batches', 'a made-up key', () => `Bearer ${API_KEYS.format.generate(api.config.values.API_KEY_BRAND, 'test')}`, 'UNAUTHORIZED'],
    ['/v1/network-assessments', 'a malformed key', () => 'Bearer not-a-key', 'UNAUTHORIZED'],
    ['/v1/nothing-here', 'no credential', undefined, 'NOT_FOUND'],
    ['/v1/ai/tasks', 'a reviewer credential', () => `Bearer ${REVIEWER_CREDENTIALS.format.generate(api.config.values.API_KEY_BRAND, 'test')}`, 'FORBIDDEN'],
  ])('on %s with %s: answered though 1 KiB of 30 MiB was sent, and the connection closed', async (route, _name, authorization, code) => {
    const response = await sendRaw(port(), startedPost(route, authorization?.(), DECLARED, SENT), 5_000);
    expect(errorOf(response).code).toBe(code);
    expect(response.headers.connection).toBe('close');
  });

  it.each([
    ['/v1/ai/tasks', 'an API key'],
    ['/v1/review/assessments', 'a reviewer credential'],
  ])('tells a caller on %s without a credential to send %s, in words the redaction of credentials leaves whole', async (route, credential) => {
    const response = await fetch(`${api.baseUrl}${route}`);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(response.status).toBe(401);
    expect(error.message).toBe(`Send ${credential} in the Authorization header, with the scheme Bearer`);
  });

  it('keeps the connection of a refused small body, read to its end', async () => {
    const body = Buffer.alloc(MAX_BODY_READ_WHEN_REFUSED, 'a');
    const response = await fetch(`${api.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(response.status).toBe(401);
    expect(response.headers.get('connection')).toBe('keep-alive');
  });

  it("waits for a keyed caller's body, as before", async () => {
    const response = sendRaw(port(), startedPost('/v1/ai/tasks', `Bearer ${realKey}`, 2 * SENT, SENT), 1_000);
    await expect(response).rejects.toThrow(/no complete answer within 1000 ms/);
  });
});

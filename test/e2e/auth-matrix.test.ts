import { AssayHarness } from '../support/assay-harness';
import { bearer, http } from '../support/http';
import { testPostgresPerFile } from '../support/test-postgres';
import { SUMMARIZE_TASK } from '../support/tasks';

const postgres = testPostgresPerFile();

/**
 * docs/api.md, Authentication and keys, over both key stores: a credential that is not a working
 * key is 401 UNAUTHORIZED; a working key asking for another organisation's or environment's task
 * gets 404, never 403. 403 is only ever the wrong kind of credential: a customer key on a review
 * operation, a reviewer credential on a customer one.
 */
describe.each([
  ['SQLite', async () => undefined],
  ['PostgreSQL', async () => postgres().createDatabase()],
])('authentication with the %s key store', (_store, databaseUrl) => {
  let harness: AssayHarness;
  let tasksUrl: string;
  let taskUrl: string;
  const credentials: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    harness = await AssayHarness.start({ worker: false, databaseUrl: await databaseUrl() });
    tasksUrl = `${harness.baseUrl}/v1/ai/tasks`;
    const acme = await harness.issueKey('acme', 'test');
    const created = await http(tasksUrl, { method: 'POST', headers: bearer(acme.key), json: SUMMARIZE_TASK });
    expect(created.status).toBe(202);
    taskUrl = `${tasksUrl}/${created.body.id}`;

    const revoked = await harness.issueKey('acme', 'test');
    await harness.revokeKey(revoked.id);
    const rotatedOut = await harness.issueKey('acme', 'test');
    const replacement = await harness.rotateKey(rotatedOut.id);
    const inGrace = await harness.issueKey('acme', 'test');
    const graceReplacement = await harness.rotateKey(inGrace.id, 60 * 60 * 1000);

    Object.assign(credentials, {
      'the key that created it': bearer(acme.key),
      'no credential': {},
      'a key in the Basic scheme': { authorization: `Basic ${Buffer.from(`acme:${acme.key}`).toString('base64')}` },
      'a key without a scheme': { authorization: acme.key },
      'a malformed key': bearer('not-a-key'),
      'an empty Bearer credential': { authorization: 'Bearer ' },
      'an unknown key': bearer(`assay_test_${'A'.repeat(32)}`),
      'a key of another brand': bearer(acme.key.replace(/^assay_/, 'other_')),
      'a key with its environment prefix altered': bearer(acme.key.replace('_test_', '_live_')),
      'a revoked key': bearer(revoked.key),
      'a key rotated out': bearer(rotatedOut.key),
      'the replacement of a rotated key': bearer(replacement.issued.key),
      'a rotated key in its grace period': bearer(inGrace.key),
      'the replacement of a key in its grace period': bearer(graceReplacement.issued.key),
      'a key of another organisation': bearer((await harness.issueKey('globex', 'test')).key),
      'a key of another environment': bearer((await harness.issueKey('acme', 'live')).key),
    });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it.each([
    'no credential',
    'a key in the Basic scheme',
    'a key without a scheme',
    'a malformed key',
    'an empty Bearer credential',
    'an unknown key',
    'a key of another brand',
    'a key with its environment prefix altered',
    'a revoked key',
    'a key rotated out',
  ])('answers 401 UNAUTHORIZED to %s, on reads and creates', async (name) => {
    for (const response of [
      await http(taskUrl, { headers: credentials[name] }),
      await http(tasksUrl, { method: 'POST', headers: credentials[name], json: SUMMARIZE_TASK }),
    ]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String), request_id: response.headers.get('x-request-id') } });
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it.each(['a key of another organisation', 'a key of another environment'])('answers 404 NOT_FOUND, never 403, to %s', async (name) => {
    const response = await http(taskUrl, { headers: credentials[name] });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });

  describe('reviewer credentials', () => {
    const reviewers: Record<string, Record<string, string>> = {};

    beforeAll(async () => {
      const alice = await harness.addReviewer('alice');
      const revoked = await harness.addReviewer('bob');
      await (await harness.reviewerService()).revoke(revoked.id);
      Object.assign(reviewers, {
        alice: bearer(alice.credential),
        'a revoked reviewer credential': bearer(revoked.credential),
        'a reviewer credential with its environment altered': bearer(alice.credential.replace('_rvw_test_', '_rvw_live_')),
        'an unknown reviewer credential': bearer(`assay_rvw_test_${'A'.repeat(32)}`),
        'no credential': {},
      });
    });

    it('open console sessions that act as them until they are revoked', async () => {
      const carol = await harness.addReviewer('carol');
      const signedIn = await http(`${harness.baseUrl}/console/session`, { method: 'POST', json: { credential: carol.credential } });
      expect(signedIn.status).toBe(201);
      const cookie = { cookie: (signedIn.headers.get('set-cookie') ?? '').split(';')[0] };
      expect(await http(`${harness.baseUrl}/v1/review/me`, { headers: cookie })).toMatchObject({ status: 200, body: { name: 'carol' } });
      expect(await http(`${harness.baseUrl}/console/session`, { headers: cookie })).toMatchObject({ status: 200, body: { kind: 'reviewer', name: 'carol' } });
      await (await harness.reviewerService()).revoke(carol.id);
      expect((await http(`${harness.baseUrl}/v1/review/me`, { headers: cookie })).status).toBe(401);
    });

    it('are one active credential per name, refused a second time', async () => {
      await expect(harness.addReviewer('alice')).rejects.toThrow('an active reviewer credential named "alice" already exists in test');
    });

    it('serve the review operations as the reviewer they belong to', async () => {
      expect(await http(`${harness.baseUrl}/v1/review/me`, { headers: reviewers.alice })).toMatchObject({ status: 200, body: { name: 'alice', environment: 'test' } });
    });

    it.each(['a revoked reviewer credential', 'a reviewer credential with its environment altered', 'an unknown reviewer credential', 'no credential'])(
      'answer 401 UNAUTHORIZED on a review operation to %s',
      async (name) => {
        const response = await http(`${harness.baseUrl}/v1/review/me`, { headers: reviewers[name] });
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String), request_id: response.headers.get('x-request-id') } });
      },
    );

    it('answer 403 FORBIDDEN to a customer key on a review operation, and to a reviewer credential on a customer operation', async () => {
      for (const response of [
        await http(`${harness.baseUrl}/v1/review/me`, { headers: credentials['the key that created it'] }),
        await http(`${harness.baseUrl}/v1/review/assessments`, { headers: credentials['the key that created it'] }),
        await http(taskUrl, { headers: reviewers.alice }),
        await http(tasksUrl, { method: 'POST', headers: reviewers.alice, json: SUMMARIZE_TASK }),
      ]) {
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ error: { code: 'FORBIDDEN', message: expect.any(String), request_id: response.headers.get('x-request-id') } });
      }
    });
  });

  it.each(['the key that created it', 'the replacement of a rotated key', 'a rotated key in its grace period', 'the replacement of a key in its grace period'])('serves the task to %s', async (name) => {
    const response = await http(taskUrl, { headers: credentials[name] });
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('queued');
  });
});

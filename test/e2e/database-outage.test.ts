import { AssayHarness } from '../support/assay-harness';
import { API_OPERATIONS } from '../support/api-operations';
import { bearer, http, type HttpResult } from '../support/http';
import { operationName, sendEveryOperation, type OperationCredentials } from '../support/operation-requests';
import { startTestPostgres, type TestPostgres } from '../support/test-postgres';

// Keys, webhook endpoints, usage, batch items and console sessions live in PostgreSQL, which is
// stopped while Temporal runs. No operation may answer 500 for it: whatever needs the database
// answers 503 with Retry-After. Each operation is sent twice: while the key and the reviewer
// credential are still in the key cache, so the outage meets the handlers (webhooks, usage,
// batches), and once the cache has expired, so it meets every key check.

const KEY_CACHE_TTL_MS = 5000;

// What these serve is the process's own; they never touch the database.
const ANSWERED_WITHOUT_DATABASE = new Set(['GET /healthz', 'GET /metrics', 'GET /openapi.json', 'GET /docs', 'GET /console', 'GET /console/assets/{asset}']);

let postgres: TestPostgres;
let harness: AssayHarness;
let whileCached: Map<string, HttpResult>;
let afterCache: Map<string, HttpResult>;

beforeAll(async () => {
  postgres = await startTestPostgres();
  harness = await AssayHarness.start({ worker: false, databaseUrl: await postgres.createDatabase(), env: { KEY_CACHE_TTL_MS: String(KEY_CACHE_TTL_MS) } });
  const { key } = await harness.issueKey('acme', 'test');
  const { credential: reviewer } = await harness.addReviewer('alice');
  const signedIn = await http(`${harness.baseUrl}/console/session`, { method: 'POST', json: { credential: key } });
  expect(signedIn.status).toBe(201);
  const credentials: OperationCredentials = { key, reviewer, cookie: (signedIn.headers.get('set-cookie') ?? '').split(';')[0] };
  const inputs = { bodies: { 'POST /console/session': { credential: key } } };

  const cachedAt = Date.now();
  expect((await http(`${harness.baseUrl}/v1/models`, { headers: bearer(key) })).status).toBe(200);
  expect((await http(`${harness.baseUrl}/v1/review/me`, { headers: bearer(reviewer) })).status).toBe(200);
  await postgres.stop();
  whileCached = await sendEveryOperation(harness.baseUrl, API_OPERATIONS, credentials, inputs);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, cachedAt + KEY_CACHE_TTL_MS + 500 - Date.now())));
  afterCache = await sendEveryOperation(harness.baseUrl, API_OPERATIONS, credentials, inputs);
}, 180_000);

afterAll(async () => {
  await harness?.stop();
});

function expectUnavailable(answer: HttpResult): void {
  expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe('every operation while PostgreSQL is down', () => {
  it.each(API_OPERATIONS.map(operationName))('%s, with the credential still cached: answers, or 503 with Retry-After, never 500', (name) => {
    const answer = whileCached.get(name) as HttpResult;
    if (answer.status >= 500) expectUnavailable(answer);
  });

  it.each(API_OPERATIONS.filter((operation) => !ANSWERED_WITHOUT_DATABASE.has(operationName(operation))).map(operationName))(
    '%s, once the credential must be looked up: 503 SERVICE_UNAVAILABLE with Retry-After',
    (name) => expectUnavailable(afterCache.get(name) as HttpResult),
  );

  it.each([...ANSWERED_WITHOUT_DATABASE])('%s answers as usual', (name) => {
    expect((afterCache.get(name) as HttpResult).status).toBeLessThan(500);
  });

  it('meets the outage in the handlers while the credential is cached: their own 503, not the key check\'s', () => {
    // The models need no database: 200 shows the key was still cached (the sends take well under a second of the 5 s).
    expect((whileCached.get('GET /v1/models') as HttpResult).status).toBe(200);
    for (const name of ['GET /v1/webhook-endpoints', 'GET /v1/webhook-endpoints/{endpoint_id}', 'GET /v1/usage']) {
      expect([name, (whileCached.get(name) as HttpResult).body.error?.message]).toEqual([name, 'The database is unreachable; retry shortly']);
    }
  });
});

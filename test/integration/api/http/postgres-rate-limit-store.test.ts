import { PostgresTokenBucketLimiter } from '../../../../src/api/http/postgres-rate-limit-store';
import { TokenBucketLimiter, type RateLimitPolicy } from '../../../../src/api/http/rate-limit';
import { startTestPostgres, type TestPostgres } from '../../../support/test-postgres';

let postgres: TestPostgres;
const opened: PostgresTokenBucketLimiter[] = [];

beforeAll(async () => {
  postgres = await startTestPostgres();
});

afterAll(async () => {
  await Promise.all(opened.map((limiter) => limiter.close()));
  await postgres?.stop();
});

/** Two limiters on one new database, each with its own pool: two API instances. */
async function twoInstances(policy: RateLimitPolicy): Promise<PostgresTokenBucketLimiter[]> {
  const url = await postgres.createDatabase();
  const limiters = await Promise.all([PostgresTokenBucketLimiter.open(url, policy), PostgresTokenBucketLimiter.open(url, policy)]);
  opened.push(...limiters);
  return limiters;
}

describe('the create limit in PostgreSQL', () => {
  it('allows the burst once across instances, however the requests race', async () => {
    const [a, b] = await twoInstances({ name: 'creates', perMinute: 1, burst: 10 });
    const decisions = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).take('key_a')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
    expect(decisions.filter((decision) => decision.allowed).map((decision) => decision.remaining).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('decides as the in-memory limiter does: same remaining and same wait', async () => {
    const policy = { name: 'creates', perMinute: 1, burst: 3 };
    const [shared] = await twoInstances(policy);
    const memory = new TokenBucketLimiter(policy, () => 0);
    for (let i = 0; i < 5; i++) expect(await shared.take('key_a')).toEqual(memory.take('key_a'));
  });

  it('keeps one bucket per key and per policy', async () => {
    const [a, b] = await twoInstances({ name: 'creates', perMinute: 1, burst: 1 });
    const [other] = await twoInstances({ name: 'other', perMinute: 1, burst: 1 });
    expect((await a.take('key_a')).allowed).toBe(true);
    expect((await b.take('key_a')).allowed).toBe(false);
    expect((await b.take('key_b')).allowed).toBe(true);
    expect((await other.take('key_a')).allowed).toBe(true);
  });

  it('refills at the per-minute rate on the database clock', async () => {
    const [a, b] = await twoInstances({ name: 'creates', perMinute: 600, burst: 1 });
    expect((await a.take('key_a')).allowed).toBe(true);
    expect(await b.take('key_a')).toEqual({ allowed: false, remaining: 0, secondsUntilNext: 1 });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await b.take('key_a')).allowed).toBe(true);
  });
});

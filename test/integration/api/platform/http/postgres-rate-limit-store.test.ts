import { PostgresCreateRateLimits } from '../../../../../src/api/platform/http/postgres-rate-limit-store';
import { MemoryCreateRateLimits, type RateLimitOutcome } from '../../../../../src/api/platform/http/rate-limit';
import { TokenBucketLimiter, type RateLimitPolicy } from '../../../../../src/common/rate-limits/token-bucket';
import { startTestPostgres, type TestPostgres } from '../../../../support/test-postgres';

let postgres: TestPostgres;
const opened: PostgresCreateRateLimits[] = [];

beforeAll(async () => {
  postgres = await startTestPostgres();
});

afterAll(async () => {
  await Promise.all(opened.map((limits) => limits.close()));
  await postgres?.stop();
});

const ROOMY: RateLimitPolicy = { name: 'organisation-creates', perMinute: 1, burst: 1000 };

/** Two API instances' create limits on one new database, each with its own pool. */
async function twoInstances(perKey: RateLimitPolicy, perOrganisation: RateLimitPolicy = ROOMY): Promise<PostgresCreateRateLimits[]> {
  const url = await postgres.createDatabase();
  const instances = await Promise.all([PostgresCreateRateLimits.open(url, perKey, perOrganisation), PostgresCreateRateLimits.open(url, perKey, perOrganisation)]);
  opened.push(...instances);
  return instances;
}

/** What a client sees of the outcomes: each limit by name, and its decision. */
function seen(outcomes: RateLimitOutcome[]) {
  return outcomes.map(([limit, decision]) => [limit.policy.name, decision]);
}

/** What a client sees of the outcomes but the waits: each limit by name, whether it allowed, and what remains. */
function counted(outcomes: RateLimitOutcome[]) {
  return outcomes.map(([limit, decision]) => [limit.policy.name, decision.allowed, decision.remaining]);
}

function allowed(outcomes: RateLimitOutcome[]): boolean {
  return outcomes.every(([, decision]) => decision.allowed);
}

describe('the create limits in PostgreSQL', () => {
  it('allows a key its burst once across instances, however the requests race', async () => {
    const [a, b] = await twoInstances({ name: 'creates', perMinute: 1, burst: 10 });
    const spent = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).spend('key_a', 'sandbox/acme')));
    const allowedKeys = spent.filter(allowed).map(([[, key]]) => key.remaining);
    expect(allowedKeys.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('allows an organisation its burst once over all its keys racing, and counts it only for creates their key allowed', async () => {
    const [a, b] = await twoInstances({ name: 'creates', perMinute: 1, burst: 3 }, { name: 'organisation-creates', perMinute: 1, burst: 8 });
    const keys = ['key_1', 'key_2', 'key_3', 'key_4'];
    const spent = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).spend(keys[i % keys.length], 'sandbox/acme')));
    expect(spent.filter(allowed)).toHaveLength(8);
    // 12 creates had a key token (3 per key); 4 of those found the organisation's bucket empty, 28 never reached it.
    expect(spent.filter((outcomes) => outcomes.length === 2)).toHaveLength(12);
  });

  it('decides as the in-memory limits do: same limits counted, same remaining and same wait', async () => {
    const perKey = { name: 'creates', perMinute: 1, burst: 2 };
    const perOrganisation = { name: 'organisation-creates', perMinute: 1, burst: 3 };
    const [shared] = await twoInstances(perKey, perOrganisation);
    const memory = new MemoryCreateRateLimits(new TokenBucketLimiter(perKey, () => 0), new TokenBucketLimiter(perOrganisation, () => 0));
    const started = performance.now();
    for (const key of ['key_a', 'key_a', 'key_a', 'key_b', 'key_b', 'key_c', 'key_c']) {
      const [inDatabase, inMemory] = [await shared.spend(key, 'sandbox/acme'), await memory.spend(key, 'sandbox/acme')];
      expect(counted(inDatabase)).toEqual(counted(inMemory));
      // The database's clock runs while the in-memory one stands still: each second passed may take a second off a wait.
      const secondsPassed = (performance.now() - started) / 1000;
      inDatabase.forEach(([, { secondsUntilNext }], i) => {
        expect(secondsUntilNext).toBeLessThanOrEqual(inMemory[i][1].secondsUntilNext);
        expect(secondsUntilNext).toBeGreaterThanOrEqual(Math.floor(inMemory[i][1].secondsUntilNext - secondsPassed));
      });
    }
  });

  it('keeps one bucket per key, per organisation and per policy', async () => {
    const [a, b] = await twoInstances({ name: 'creates', perMinute: 1, burst: 1 }, { name: 'organisation-creates', perMinute: 1, burst: 1 });
    const [other] = await twoInstances({ name: 'other', perMinute: 1, burst: 1 }, { name: 'other-organisations', perMinute: 1, burst: 1 });
    expect(allowed(await a.spend('key_a', 'sandbox/acme'))).toBe(true);
    expect(allowed(await b.spend('key_a', 'sandbox/globex'))).toBe(false);
    expect(allowed(await b.spend('key_b', 'sandbox/acme'))).toBe(false);
    expect(allowed(await b.spend('key_c', 'production/acme'))).toBe(true);
    expect(allowed(await other.spend('key_a', 'sandbox/acme'))).toBe(true);
  });

  it('refills at the per-minute rate on the database clock', async () => {
    // A token a second: a loaded machine may take a tenth of a second between two spends, never a whole one.
    const [a, b] = await twoInstances({ name: 'creates', perMinute: 60, burst: 1 });
    expect(allowed(await a.spend('key_a', 'sandbox/acme'))).toBe(true);
    expect(seen(await b.spend('key_a', 'sandbox/acme'))).toEqual([['creates', { allowed: false, remaining: 0, secondsUntilNext: 1 }]]);
    await new Promise((resolve) => setTimeout(resolve, 1050));
    expect(allowed(await b.spend('key_a', 'sandbox/acme'))).toBe(true);
  });
});

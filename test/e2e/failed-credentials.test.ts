import { setTimeout } from 'node:timers/promises';
import { API_KEYS } from '../../src/common/keys/api-key';
import { hashCredential } from '../../src/common/credentials/credential-format';
import { FAILED_CREDENTIALS_PER_CLIENT } from '../../src/common/credentials/failed-credential-throttle';
import { KeyStore } from '../../src/common/storage/key-store';
import { ApiWithoutTemporal } from '../support/api-without-temporal';

// Random well-formed keys each cost a database lookup and, cached as not found beside the real
// keys, pushed real keys out of the cache. Failed credentials are now throttled per client.

const RANDOM_KEYS = 10_000;
const AT_ONCE = 20;
const SOME_TASK = `${'/v1/ai/tasks/'}task_01JAAAAAAAAAAAAAAAAAAAAAAA`;

let api: ApiWithoutTemporal;

beforeAll(async () => {
  api = await ApiWithoutTemporal.start();
});

afterAll(async () => {
  await api?.stop();
});

const get = (key: string) => fetch(`${api.baseUrl}${SOME_TASK}`, { headers: { authorization: `Bearer ${key}` } });

describe('failed credentials from one client', () => {
  it('are refused with 429 past a burst, cost the database a bounded rate, and leave real keys working, even one first used during the flood', async () => {
    const realKey = (await api.issueKey('acme', 'test')).key;
    // A real client has used its key before the flood starts.
    expect((await get(realKey)).status).toBe(503);
    const store = api.app.get(KeyStore);
    const lookups = jest.spyOn(store, 'findByHash');
    const reads = jest.spyOn(store, 'createdSince');
    let newKey: string | undefined;
    const started = performance.now();
    const statuses = new Map<number, number>();
    const realKeyStatuses = new Set<number>();
    let sent = 0;
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        while (sent < RANDOM_KEYS) {
          sent++;
          const response = await get(API_KEYS.format.generate(api.config.values.API_KEY_BRAND, 'test'));
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status === 429) expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
          if (sent % 500 === 0) realKeyStatuses.add((await get(realKey)).status);
          // A key issued once the client is throttled, first used a moment later (the known keys are read at most once a second).
          if (sent === RANDOM_KEYS / 2) {
            newKey = (await api.issueKey('globex', 'test')).key;
            await setTimeout(1_100);
            realKeyStatuses.add((await get(newKey)).status);
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const perSecond = FAILED_CREDENTIALS_PER_CLIENT.perMinute / 60;
    // Temporal is unreachable, so a real key's read is 503; never 401 nor 429.
    expect([...realKeyStatuses]).toEqual([503]);
    expect(statuses.get(429)).toBeGreaterThan(RANDOM_KEYS / 2);
    expect(statuses.get(401)! + statuses.get(429)!).toBe(RANDOM_KEYS);
    expect(statuses.get(401)).toBeLessThanOrEqual(FAILED_CREDENTIALS_PER_CLIENT.burst + Math.ceil(seconds * perSecond) + AT_ONCE);
    // The real keys are looked up again each time their cache entry ends; the others are made-up
    // keys, about one per 401 (a few more: requests in flight as the client's count ran out).
    const realHashes = [realKey, newKey!].map(hashCredential);
    const madeUpLookups = lookups.mock.calls.filter(([hash]) => !realHashes.some((real) => real.equals(hash))).length;
    expect(madeUpLookups).toBeLessThanOrEqual(statuses.get(401)! + AT_ONCE);
    // Telling real keys from made-up ones reads the keys created lately at most once a second.
    expect(reads.mock.calls.length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    lookups.mockRestore();
    reads.mockRestore();
  }, 300_000);
});

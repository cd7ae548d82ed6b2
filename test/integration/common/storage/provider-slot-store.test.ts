import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppConfig } from '../../../../src/common/config/app-config';
import { Storage } from '../../../../src/common/storage/storage';
import { testPostgresPerFile } from '../../../support/test-postgres';

/** One empty database, opened as often as several worker processes would. */
interface Database {
  /** How many handles (separate connection pools, or SQLite connections) the concurrency test opens. */
  handles: number;
  open(): Promise<Storage>;
  dispose(): Promise<void>;
}

const postgres = testPostgresPerFile();

async function sqliteDatabase(): Promise<Database> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-slots-'));
  return {
    handles: 2,
    open: () => Storage.open(new AppConfig({ DATA_DIR: dir })),
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresDatabase(): Promise<Database> {
  const url = await postgres().createDatabase();
  return { handles: 3, open: () => Storage.open(new AppConfig({ DATABASE_URL: url })), dispose: async () => undefined };
}

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);
const LEASE = 20_000;

describe.each([
  ['SQLite', sqliteDatabase],
  ['PostgreSQL', postgresDatabase],
])('%s provider slot store', (_backend, makeDatabase) => {
  let database: Database;
  let storages: Storage[];

  beforeEach(async () => {
    database = await makeDatabase();
    storages = [await database.open()];
  });

  afterEach(async () => {
    await Promise.all(storages.map((storage) => storage.close()));
    await database.dispose();
  });

  const store = () => storages[0].providerSlots;

  it('grants each of the first `limit` slots to one holder, then none', async () => {
    const slots = store();
    const taken = [];
    for (const holder of ['a', 'b', 'c']) taken.push(await slots.take('llama', 3, holder, at(0), at(LEASE)));
    expect(taken.sort()).toEqual([0, 1, 2]);
    expect(await slots.take('llama', 3, 'd', at(1000), at(1000 + LEASE))).toBeUndefined();
    // Another model's slots are its own.
    expect(await slots.take('gpt', 1, 'd', at(1000), at(1000 + LEASE))).toBe(0);
  });

  it('never grants more than the limit under 40 concurrent takes from several handles', async () => {
    while (storages.length < database.handles) storages.push(await database.open());
    const limit = 5;
    for (let round = 0; round < 3; round++) {
      const holders = Array.from({ length: 40 }, (_, index) => `round${round}-holder${index}`);
      const results = await Promise.all(
        holders.map((holder, index) => storages[index % storages.length].providerSlots.take('llama', limit, holder, at(round * 1000), at(round * 1000 + LEASE))),
      );
      const granted = results.flatMap((slot, index) => (slot === undefined ? [] : [{ slot, holder: holders[index] }]));
      expect(granted.length).toBeGreaterThanOrEqual(1);
      expect(granted.length).toBeLessThanOrEqual(limit);
      expect(new Set(granted.map(({ slot }) => slot)).size).toBe(granted.length);
      for (const { slot } of granted) expect(slot).toBeLessThan(limit);
      // Each grant is really held: its holder renews it, and the store has no slot left beyond them.
      for (const { slot, holder } of granted) expect(await store().renew('llama', slot, holder, at(round * 1000 + LEASE))).toBe(true);
      const rest = [];
      for (let extra = 0; extra < limit; extra++) rest.push(await store().take('llama', limit, `round${round}-late${extra}`, at(round * 1000), at(round * 1000 + LEASE)));
      const late = rest.filter((slot) => slot !== undefined);
      expect(granted.length + late.length).toBe(limit);
      expect(new Set([...granted.map(({ slot }) => slot), ...late]).size).toBe(limit);
      // Free them all for the next round.
      for (const { slot, holder } of granted) await store().release('llama', slot, holder);
      for (let extra = 0; extra < limit; extra++) {
        const slot = rest[extra];
        if (slot !== undefined) await store().release('llama', slot, `round${round}-late${extra}`);
      }
    }
  });

  it('gives a slot whose lease ran out to another holder, after which the first cannot renew it', async () => {
    const slots = store();
    expect(await slots.take('llama', 1, 'first', at(0), at(LEASE))).toBe(0);
    expect(await slots.take('llama', 1, 'second', at(LEASE - 1), at(2 * LEASE))).toBeUndefined();
    expect(await slots.take('llama', 1, 'second', at(LEASE + 1), at(2 * LEASE + 1))).toBe(0);
    expect(await slots.renew('llama', 0, 'first', at(2 * LEASE))).toBe(false);
    expect(await slots.renew('llama', 0, 'second', at(3 * LEASE))).toBe(true);
    // The second's renewed lease holds against a third at a time the first lease would have allowed.
    expect(await slots.take('llama', 1, 'third', at(2 * LEASE + 2), at(3 * LEASE))).toBeUndefined();
    // The first, unaware, releasing frees nothing.
    await slots.release('llama', 0, 'first');
    expect(await slots.take('llama', 1, 'third', at(2 * LEASE + 3), at(3 * LEASE))).toBeUndefined();
  });

  it('lets a holder whose lease ran out but that nobody took renew it', async () => {
    const slots = store();
    expect(await slots.take('llama', 1, 'first', at(0), at(LEASE))).toBe(0);
    expect(await slots.renew('llama', 0, 'first', at(LEASE + 5000 + LEASE))).toBe(true);
    expect(await slots.take('llama', 1, 'second', at(LEASE + 5000), at(2 * LEASE))).toBeUndefined();
  });

  it('frees a slot on release only for its holder', async () => {
    const slots = store();
    const slot = await slots.take('llama', 1, 'holder', at(0), at(LEASE));
    expect(slot).toBe(0);
    await slots.release('llama', 0, 'someone-else');
    expect(await slots.take('llama', 1, 'next', at(1), at(LEASE))).toBeUndefined();
    await slots.release('llama', 0, 'holder');
    expect(await slots.take('llama', 1, 'next', at(2), at(LEASE))).toBe(0);
    expect(await slots.renew('llama', 0, 'holder', at(LEASE))).toBe(false);
  });

  it('adds slots when the limit is raised, also on another handle', async () => {
    const slots = store();
    expect(await slots.take('llama', 2, 'a', at(0), at(LEASE))).toBe(0);
    expect(await slots.take('llama', 2, 'b', at(0), at(LEASE))).toBe(1);
    expect(await slots.take('llama', 2, 'c', at(0), at(LEASE))).toBeUndefined();
    expect(await slots.take('llama', 3, 'c', at(0), at(LEASE))).toBe(2);
    expect(await slots.take('llama', 3, 'd', at(0), at(LEASE))).toBeUndefined();
    storages.push(await database.open());
    expect(await storages[1].providerSlots.take('llama', 4, 'd', at(0), at(LEASE))).toBe(3);
    // Lowered again, the slots beyond the limit are not granted even when free.
    await slots.release('llama', 3, 'd');
    expect(await slots.take('llama', 3, 'e', at(0), at(LEASE))).toBeUndefined();
  });

  it('paces calls once per interval', async () => {
    const slots = store();
    const interval = 100;
    expect(await slots.pace('llama', interval, at(0))).toEqual({ granted: true });
    expect(await slots.pace('llama', interval, at(0))).toEqual({ granted: false, nextAt: at(interval) });
    expect(await slots.pace('llama', interval, at(interval - 1))).toEqual({ granted: false, nextAt: at(interval) });
    expect(await slots.pace('llama', interval, at(interval))).toEqual({ granted: true });
    expect(await slots.pace('llama', interval, at(interval))).toEqual({ granted: false, nextAt: at(2 * interval) });
    // After a quiet spell the next call is granted at once, and the one after an interval later.
    expect(await slots.pace('llama', interval, at(10_000))).toEqual({ granted: true });
    expect(await slots.pace('llama', interval, at(10_050))).toEqual({ granted: false, nextAt: at(10_100) });
    // Another model has a pace of its own.
    expect(await slots.pace('gpt', interval, at(10_050))).toEqual({ granted: true });
  });

  it('grants one of many concurrent paced calls from several handles', async () => {
    while (storages.length < database.handles) storages.push(await database.open());
    const results = await Promise.all(Array.from({ length: 30 }, (_, index) => storages[index % storages.length].providerSlots.pace('llama', 1000, at(0))));
    expect(results.filter((result) => result.granted)).toHaveLength(1);
    for (const result of results) if (!result.granted) expect(result.nextAt).toEqual(at(1000));
  });
});

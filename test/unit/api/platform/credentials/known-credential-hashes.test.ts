import { KnownCredentialHashes, type CreatedCredential } from '../../../../../src/api/platform/credentials/known-credential-hashes';

const hash = (n: number) => Buffer.from(String(n).padStart(32, '0'));

function store(initial: CreatedCredential[]) {
  const rows = [...initial];
  const createdSince = jest.fn(async (since?: string) => rows.filter((row) => since === undefined || Date.parse(row.createdAt) >= Date.parse(since)));
  return { rows, createdSince };
}

describe('the hashes of the credentials a store holds', () => {
  it('reads the store in full once, then answers from memory', async () => {
    const { createdSince } = store([{ hash: hash(1), createdAt: '2026-12-07T00:00:00.000Z' }]);
    const clock = { now: 0 };
    const known = new KnownCredentialHashes(createdSince, 1_000, () => clock.now);
    expect(await known.has(hash(1))).toBe(true);
    clock.now += 5_000;
    expect(await known.has(hash(1))).toBe(true);
    expect(createdSince).toHaveBeenCalledTimes(1);
    expect(createdSince).toHaveBeenCalledWith(undefined);
  });

  it('reads the store at most once per freshness for hashes it does not hold, however many are asked', async () => {
    const { createdSince } = store([]);
    const clock = { now: 0 };
    const known = new KnownCredentialHashes(createdSince, 1_000, () => clock.now);
    await Promise.all(Array.from({ length: 100 }, (_, i) => known.has(hash(i))));
    for (let i = 0; i < 100; i++) await known.has(hash(i));
    expect(createdSince).toHaveBeenCalledTimes(1);
    clock.now += 1_000;
    expect(await known.has(hash(7))).toBe(false);
    expect(createdSince).toHaveBeenCalledTimes(2);
  });

  it('finds a credential created since its last read, reading from a minute before the newest it saw', async () => {
    const { rows, createdSince } = store([{ hash: hash(1), createdAt: '2026-12-07T00:10:00.000Z' }]);
    const clock = { now: 0 };
    const known = new KnownCredentialHashes(createdSince, 1_000, () => clock.now);
    expect(await known.has(hash(2))).toBe(false);
    // Issued by a process whose clock is 30 s behind.
    rows.push({ hash: hash(2), createdAt: '2026-12-07T00:09:30.000Z' });
    clock.now += 1_000;
    expect(await known.has(hash(2))).toBe(true);
    expect(createdSince).toHaveBeenLastCalledWith('2026-12-07T00:09:00.000Z');
  });

  it('waits a freshness before asking a store that failed again', async () => {
    const createdSince = jest.fn(async () => Promise.reject(new Error('down')));
    const clock = { now: 0 };
    const known = new KnownCredentialHashes(createdSince, 1_000, () => clock.now);
    await expect(known.has(hash(1))).rejects.toThrow('down');
    expect(await known.has(hash(1))).toBe(false);
    expect(createdSince).toHaveBeenCalledTimes(1);
  });
});

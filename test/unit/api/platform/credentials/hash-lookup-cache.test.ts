import { HashLookupCache } from '../../../../../src/api/platform/credentials/hash-lookup-cache';

const hash = (n: number) => Buffer.from(String(n).padStart(32, '0'));
const REAL = hash(-1);

function cache(max: number) {
  const find = jest.fn(async (presented: Buffer) => (presented.equals(REAL) ? { id: 'key_real' } : undefined));
  return { find, cache: new HashLookupCache(find, 60_000, max) };
}

describe('credential lookups by hash', () => {
  it('looks a credential up once while its entry lasts, found or not', async () => {
    const { find, cache: lookups } = cache(10);
    await lookups.lookup(REAL);
    await lookups.lookup(REAL);
    await lookups.lookup(hash(1));
    await lookups.lookup(hash(1));
    expect(find).toHaveBeenCalledTimes(2);
  });

  it('never lets credentials not found push a found one out', async () => {
    const { find, cache: lookups } = cache(10);
    await lookups.lookup(REAL);
    for (let i = 0; i < 100; i++) await lookups.lookup(hash(i));
    find.mockClear();
    expect(await lookups.lookup(REAL)).toEqual({ id: 'key_real' });
    expect(find).not.toHaveBeenCalled();
  });
});

import { pooledRandomFraction } from '../../../../src/common/ids/pooled-random';
import { newPrefixedId } from '../../../../src/common/ids/prefixed-ulid';

const ULID_ALPHABET_SIZE = 32;
const POOL_BYTES = 4096;

describe('the pooled random source of new ids', () => {
  it('draws fractions in [0, 1) that fall evenly on every letter of the ULID alphabet', () => {
    const draws = 64_000;
    const counts = new Array<number>(ULID_ALPHABET_SIZE).fill(0);
    for (let i = 0; i < draws; i++) {
      const fraction = pooledRandomFraction();
      expect(fraction).toBeGreaterThanOrEqual(0);
      expect(fraction).toBeLessThan(1);
      counts[Math.floor(fraction * ULID_ALPHABET_SIZE)] += 1;
    }
    const expected = draws / ULID_ALPHABET_SIZE;
    // ±12 % is more than six standard deviations: a fair source never misses it.
    for (const count of counts) expect(Math.abs(count - expected)).toBeLessThan(expected * 0.12);
  });

  it('takes fresh bytes from the OS for every page instead of repeating one', () => {
    const page = () => Array.from({ length: POOL_BYTES }, () => pooledRandomFraction()).join();
    expect(page()).not.toEqual(page());
  });

  it('gives distinct ids of the prefix-and-ULID shape', () => {
    const ids = Array.from({ length: 10_000 }, () => newPrefixedId('req_'));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^req_[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
  });
});

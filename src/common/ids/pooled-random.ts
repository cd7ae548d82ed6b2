import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let next = POOL_BYTES;

/**
 * A fraction in [0, 1) from the OS's CSPRNG, drawn a page at a time: ulid's own source asks the
 * OS once per character, which made request ids ~7 % of the API's CPU under polling. A byte per
 * draw is exact for ulid's 32-letter alphabet (256 = 8 × 32).
 */
export function pooledRandomFraction(): number {
  if (next === POOL_BYTES) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++] / 256;
}

import { LRUCache } from 'lru-cache';

const NOT_FOUND = Symbol('not-found');

/**
 * Credential lookups by hash, found and not found alike, cached for a short TTL so polling stays
 * cheap; the TTL bounds how long a revoked credential keeps working on this process. A TTL of 0
 * looks every credential up.
 */
export class HashLookupCache<T extends object> {
  private readonly cache?: LRUCache<string, T | typeof NOT_FOUND>;

  constructor(
    private readonly find: (hash: Buffer) => Promise<T | undefined>,
    ttlMs: number,
    max: number,
  ) {
    if (ttlMs > 0) this.cache = new LRUCache({ max, ttl: ttlMs });
  }

  async lookup(hash: Buffer): Promise<T | undefined> {
    const cacheKey = hash.toString('base64');
    const cached = this.cache?.get(cacheKey);
    if (cached !== undefined) return cached === NOT_FOUND ? undefined : cached;
    const stored = await this.find(hash);
    this.cache?.set(cacheKey, stored ?? NOT_FOUND);
    return stored;
  }
}

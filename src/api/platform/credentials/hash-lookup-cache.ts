import { LRUCache } from 'lru-cache';

/**
 * Credential lookups by hash, cached for a short TTL so polling stays cheap; the TTL bounds how
 * long a revoked credential keeps working on this process. A TTL of 0 looks every credential up.
 * Credentials not found are cached apart from found ones, so a flood of made-up ones never
 * pushes a real one out.
 */
export class HashLookupCache<T extends object> {
  private readonly found?: LRUCache<string, T>;
  private readonly missing?: LRUCache<string, true>;

  constructor(
    private readonly find: (hash: Buffer) => Promise<T | undefined>,
    ttlMs: number,
    max: number,
  ) {
    if (ttlMs > 0) {
      this.found = new LRUCache({ max, ttl: ttlMs });
      this.missing = new LRUCache({ max, ttl: ttlMs });
    }
  }

  async lookup(hash: Buffer): Promise<T | undefined> {
    const cacheKey = hash.toString('base64');
    if (this.missing?.has(cacheKey)) return undefined;
    const cached = this.found?.get(cacheKey);
    if (cached !== undefined) return cached;
    const stored = await this.find(hash);
    if (stored === undefined) {
      this.missing?.set(cacheKey, true);
      return undefined;
    }
    this.found?.set(cacheKey, stored);
    return stored;
  }
}

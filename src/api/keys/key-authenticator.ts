import { timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { hashApiKey, parseApiKey, type KeyEnvironment } from '../../common/keys/api-key';
import type { KeyStore, StoredKey } from '../../common/storage/key-store';
import type { KeyUsageRecorder } from './key-usage-recorder';

export interface Caller {
  organizationId: string;
  environment: KeyEnvironment;
  keyId: string;
}

export interface KeyAuthenticatorOptions {
  clock?: () => Date;
  usage?: KeyUsageRecorder;
}

const NOT_FOUND = Symbol('not-found');

/**
 * Turns a presented key into a caller, or nothing. Lookups are cached for a short TTL so polling
 * stays cheap; the TTL bounds how long a revoked key keeps working on this process. Expiry (a
 * rotation's grace period) is checked on every call, cached or not.
 */
export class KeyAuthenticator {
  private readonly cache?: LRUCache<string, StoredKey | typeof NOT_FOUND>;
  private readonly clock: () => Date;

  constructor(
    private readonly store: KeyStore,
    private readonly brand: string,
    cacheTtlMs: number,
    private readonly options: KeyAuthenticatorOptions = {},
  ) {
    if (cacheTtlMs > 0) this.cache = new LRUCache({ max: 10_000, ttl: cacheTtlMs });
    this.clock = options.clock ?? (() => new Date());
  }

  async authenticate(presented: string): Promise<Caller | undefined> {
    const parsed = parseApiKey(presented);
    if (!parsed || parsed.brand !== this.brand) return undefined;
    const hash = hashApiKey(presented);
    const stored = await this.lookup(hash);
    if (!stored || stored.revokedAt !== null) return undefined;
    // The lookup is by hash; comparing the full digests again in constant time keeps the
    // decision itself free of timing differences whatever the store's index does.
    if (!timingSafeEqual(stored.hash, hash)) return undefined;
    if (stored.environment !== parsed.environment) return undefined;
    const now = this.clock();
    if (stored.expiresAt !== null && Date.parse(stored.expiresAt) <= now.getTime()) return undefined;
    this.options.usage?.noteUse(stored.id, now);
    return { organizationId: stored.organizationId, environment: stored.environment, keyId: stored.id };
  }

  private async lookup(hash: Buffer): Promise<StoredKey | undefined> {
    const cacheKey = hash.toString('base64');
    const cached = this.cache?.get(cacheKey);
    if (cached !== undefined) return cached === NOT_FOUND ? undefined : cached;
    const stored = await this.store.findByHash(hash);
    this.cache?.set(cacheKey, stored ?? NOT_FOUND);
    return stored;
  }
}

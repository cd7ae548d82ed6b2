import { timingSafeEqual } from 'node:crypto';
import { hashCredential } from '../../common/credentials/credential-format';
import { parseApiKey, type KeyEnvironment } from '../../common/keys/api-key';
import type { KeyStore, StoredKey } from '../../common/storage/key-store';
import { HashLookupCache } from './hash-lookup-cache';
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

/**
 * Turns a presented key into a caller, or nothing. Lookups are cached for a short TTL
 * (HashLookupCache); expiry (a rotation's grace period) is checked on every call, cached or not.
 */
export class KeyAuthenticator {
  private readonly keys: HashLookupCache<StoredKey>;
  private readonly clock: () => Date;

  constructor(
    private readonly store: KeyStore,
    private readonly brand: string,
    cacheTtlMs: number,
    private readonly options: KeyAuthenticatorOptions = {},
  ) {
    this.keys = new HashLookupCache((hash) => store.findByHash(hash), cacheTtlMs, 10_000);
    this.clock = options.clock ?? (() => new Date());
  }

  async authenticate(presented: string): Promise<Caller | undefined> {
    const parsed = parseApiKey(presented);
    if (!parsed || parsed.brand !== this.brand) return undefined;
    const hash = hashCredential(presented);
    const stored = await this.keys.lookup(hash);
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

  /** The caller of a key a console session was opened with, while that key still works (read afresh: a session lasts hours). */
  async byId(keyId: string): Promise<Caller | undefined> {
    const stored = await this.store.findById(keyId);
    const now = this.clock();
    if (!stored || stored.revokedAt !== null || (stored.expiresAt !== null && Date.parse(stored.expiresAt) <= now.getTime())) return undefined;
    this.options.usage?.noteUse(stored.id, now);
    return { organizationId: stored.organizationId, environment: stored.environment, keyId: stored.id };
  }

}

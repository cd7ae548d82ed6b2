import { timingSafeEqual } from 'node:crypto';
import type { CredentialEnvironment } from '../../../contract/wire/values';
import { hashCredential } from '../../../common/credentials/credential-format';
import type { CredentialKind } from '../../../common/credentials/credential-kind';
import { HashLookupCache } from './hash-lookup-cache';
import { KnownCredentialHashes } from './known-credential-hashes';

/** What the check reads of a stored credential of any kind. */
export interface StoredCredential {
  id: string;
  environment: CredentialEnvironment;
  hash: Buffer;
  createdAt: string;
  revokedAt: string | null;
  /** Only a kind that can end later (an API key in a rotation's grace period) has it. */
  expiresAt?: string | null;
}

export interface CredentialLookup<T extends StoredCredential> {
  findByHash(hash: Buffer): Promise<T | undefined>;
  findById(id: string): Promise<T | undefined>;
  createdSince(since?: string): Promise<T[]>;
}

export interface CredentialAuthenticatorOptions {
  cacheTtlMs: number;
  cacheMax: number;
  clock?: () => Date;
}

/**
 * Turns a presented credential of one kind into whom it identifies, or nothing. Lookups are cached
 * for a short TTL (HashLookupCache); revocation and expiry are checked on every call, cached or not.
 */
export class CredentialAuthenticator<T extends StoredCredential, Identity> {
  private readonly byHash: HashLookupCache<T>;
  private readonly known: KnownCredentialHashes;
  private readonly clock: () => Date;

  constructor(
    private readonly kind: CredentialKind,
    private readonly store: CredentialLookup<T>,
    private readonly brand: string,
    options: CredentialAuthenticatorOptions,
    private readonly identify: (stored: T, now: Date) => Identity,
  ) {
    this.byHash = new HashLookupCache((hash) => store.findByHash(hash), options.cacheTtlMs, options.cacheMax);
    this.known = new KnownCredentialHashes((since) => store.createdSince(since));
    this.clock = options.clock ?? (() => new Date());
  }

  async authenticate(presented: string): Promise<Identity | undefined> {
    const parsed = this.kind.format.parse(presented);
    if (!parsed || parsed.brand !== this.brand) return undefined;
    const hash = hashCredential(presented);
    const stored = await this.byHash.lookup(hash);
    // The lookup is by hash; comparing the full digests again in constant time keeps the
    // decision itself free of timing differences whatever the store's index does.
    if (!stored || !timingSafeEqual(stored.hash, hash) || stored.environment !== parsed.environment) return undefined;
    return this.whileActive(stored);
  }

  /** Whether the store holds the credential (revoked or not), as of a second ago: the throttle on failed credentials lets it through. */
  isKnown(presented: string): Promise<boolean> {
    return this.known.has(hashCredential(presented));
  }

  /** Whom the credential a console session was opened with identifies, while it still works (read afresh: a session lasts hours). */
  async byId(id: string): Promise<Identity | undefined> {
    const stored = await this.store.findById(id);
    return stored && this.whileActive(stored);
  }

  private whileActive(stored: T): Identity | undefined {
    const now = this.clock();
    if (stored.revokedAt !== null) return undefined;
    if (stored.expiresAt != null && Date.parse(stored.expiresAt) <= now.getTime()) return undefined;
    return this.identify(stored, now);
  }
}

import { timingSafeEqual } from 'node:crypto';
import { hashCredential } from '../../common/credentials/credential-format';
import type { KeyEnvironment } from '../../common/keys/api-key';
import { parseReviewerCredential } from '../../common/reviewers/reviewer-credential';
import type { ReviewerStore, StoredReviewer } from '../../common/storage/reviewer-store';
import { HashLookupCache } from '../keys/hash-lookup-cache';

/** The authenticated reviewer: the name is what the workflow records as who claimed and completed. */
export interface Reviewer {
  reviewerId: string;
  name: string;
  environment: KeyEnvironment;
  /** The credential's review groups: which pipeline stages with a group this reviewer may act on. */
  groups: readonly string[];
}

/**
 * Turns a presented reviewer credential into a reviewer, or nothing: looked up by hash, the
 * digests compared again in constant time, revocation honoured within the cache TTL (as for API keys).
 */
export class ReviewerAuthenticator {
  private readonly reviewers: HashLookupCache<StoredReviewer>;

  constructor(
    private readonly store: ReviewerStore,
    private readonly brand: string,
    cacheTtlMs: number,
  ) {
    this.reviewers = new HashLookupCache((hash) => store.findByHash(hash), cacheTtlMs, 1_000);
  }

  async authenticate(presented: string): Promise<Reviewer | undefined> {
    const parsed = parseReviewerCredential(presented);
    if (!parsed || parsed.brand !== this.brand) return undefined;
    const hash = hashCredential(presented);
    const stored = await this.reviewers.lookup(hash);
    if (!stored || stored.revokedAt !== null || stored.environment !== parsed.environment) return undefined;
    if (!timingSafeEqual(stored.hash, hash)) return undefined;
    return toReviewer(stored);
  }

  /** The reviewer of a credential a console session was opened with, while it is not revoked (read afresh). */
  async byId(reviewerId: string): Promise<Reviewer | undefined> {
    const stored = await this.store.findById(reviewerId);
    return stored && stored.revokedAt === null ? toReviewer(stored) : undefined;
  }
}

function toReviewer(stored: StoredReviewer): Reviewer {
  return { reviewerId: stored.id, name: stored.name, environment: stored.environment, groups: stored.groups };
}

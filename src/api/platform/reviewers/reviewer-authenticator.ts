import type { KeyEnvironment } from '../../../common/keys/api-key';
import { REVIEWER_CREDENTIALS } from '../../../common/reviewers/reviewer-credential';
import type { ReviewerStore } from '../../../common/storage/reviewer-store';
import type { StoredReviewer } from '../../../common/storage/tables';
import { CredentialAuthenticator } from '../credentials/credential-authenticator';

/** The authenticated reviewer: the name is what the workflow records as who claimed and completed. */
export interface Reviewer {
  reviewerId: string;
  name: string;
  environment: KeyEnvironment;
  /** The credential's review groups: which pipeline stages with a group this reviewer may act on. */
  groups: readonly string[];
}

/** Turns a presented reviewer credential into a reviewer, or nothing. */
export class ReviewerAuthenticator extends CredentialAuthenticator<StoredReviewer, Reviewer> {
  constructor(store: ReviewerStore, brand: string, cacheTtlMs: number) {
    super(REVIEWER_CREDENTIALS, store, brand, { cacheTtlMs, cacheMax: 1_000 }, (stored) => ({
      reviewerId: stored.id,
      name: stored.name,
      environment: stored.environment,
      groups: stored.groups,
    }));
  }
}

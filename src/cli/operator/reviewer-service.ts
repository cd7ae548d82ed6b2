import type { KeyEnvironment } from '../../common/keys/api-key';
import { CredentialService, type CredentialSummary } from '../../common/credentials/credential-service';
import type { RecordedReviewerAuditEntry, ReviewerStore } from '../../common/storage/reviewer-store';
import type { ReviewerAuditAction, ReviewerAuditEntry, StoredReviewer } from '../../common/storage/tables';
import { MAX_REVIEWER_GROUPS } from '../../contract';
import { REVIEWER_CREDENTIALS, REVIEWER_GROUP_SHAPE, REVIEWER_NAME_SHAPE } from '../../common/reviewers/reviewer-credential';

export interface IssuedReviewer {
  id: string;
  name: string;
  env: KeyEnvironment;
  groups: string[];
  credential: string;
}

export type ReviewerSummary = CredentialSummary<StoredReviewer>;

export class InvalidReviewerNameError extends Error {
  constructor(name: string) {
    super(`reviewer name "${name}" must be 1-64 lowercase letters, digits, dots, dashes or underscores, starting with a letter or digit`);
  }
}

export class InvalidReviewerGroupsError extends Error {}

/**
 * The groups as a credential carries them: each a group name, each once, at most
 * MAX_REVIEWER_GROUPS (what the workflow accepts in one request). Throws InvalidReviewerGroupsError.
 */
export function normalizeReviewerGroups(groups: readonly string[]): string[] {
  const invalid = groups.find((group) => !REVIEWER_GROUP_SHAPE.test(group));
  if (invalid !== undefined) {
    throw new InvalidReviewerGroupsError(`group "${invalid}" must be 1-32 lowercase letters, digits, dashes or underscores, starting with a letter or digit`);
  }
  const distinct = [...new Set(groups)];
  if (distinct.length > MAX_REVIEWER_GROUPS) throw new InvalidReviewerGroupsError(`a reviewer may be in at most ${MAX_REVIEWER_GROUPS} groups, not ${distinct.length}`);
  return distinct;
}

/** An active credential already has this name in this environment. */
export class ReviewerNameTakenError extends Error {
  constructor(name: string, env: KeyEnvironment) {
    super(`an active reviewer credential named "${name}" already exists in ${env}; revoke it first`);
  }
}

/**
 * Operator-side lifecycle of reviewer credentials: add, list, revoke, audit. Each change is audited
 * in the same transaction; the secret exists only in the return value of add.
 */
export class ReviewerService extends CredentialService<StoredReviewer, ReviewerStore> {
  protected readonly kind = REVIEWER_CREDENTIALS;

  /** `groups`: the stages' groups the reviewer may act in; with none, only stages without a group. */
  async add(name: string, env: KeyEnvironment, groups: readonly string[] = []): Promise<IssuedReviewer> {
    if (!REVIEWER_NAME_SHAPE.test(name)) throw new InvalidReviewerNameError(name);
    const memberOf = normalizeReviewerGroups(groups);
    const at = this.clock().toISOString();
    const { secret: credential, ...minted } = this.mint(env);
    const stored: StoredReviewer = { ...minted, name, environment: env, groups: memberOf, createdAt: at, revokedAt: null };
    const details: ReviewerAuditEntry['details'] = memberOf.length > 0 ? { groups: memberOf.join(',') } : {};
    if (!(await this.store.add(stored, this.auditEntry('add', stored, at, details)))) throw new ReviewerNameTakenError(name, env);
    return { id: stored.id, name, env, groups: memberOf, credential };
  }

  /** Returns false when no active credential has that id. */
  revoke(id: string, reason?: string): Promise<boolean> {
    const at = this.clock().toISOString();
    return this.store.revoke(id, at, (revoked) => this.auditEntry('revoke', revoked, at, reason ? { reason } : {}));
  }

  audit(limit: number): Promise<RecordedReviewerAuditEntry[]> {
    return this.store.auditLog(limit);
  }

  private auditEntry(action: ReviewerAuditAction, reviewer: StoredReviewer, at: string, details: ReviewerAuditEntry['details']): ReviewerAuditEntry {
    return { at, actor: this.actor, action, reviewerId: reviewer.id, name: reviewer.name, environment: reviewer.environment, details };
  }
}

import type { Kysely } from 'kysely';
import { CredentialStore, toAuditRow } from './credential-store';
import type { ReviewerAuditEntry, ReviewerCredentialRow, StoredReviewer, Tables } from './tables';

export interface RecordedReviewerAuditEntry extends ReviewerAuditEntry {
  id: number;
}

/** Persistence of reviewer credentials and their audit log; the decisions live in ReviewerService. */
export class ReviewerStore extends CredentialStore<'reviewerCredentials', ReviewerCredentialRow, StoredReviewer> {
  constructor(db: Kysely<Tables>) {
    super(db, () => db.selectFrom('reviewerCredentials').selectAll(), fromCredentialRow);
  }

  /**
   * Adds the credential and its audit entry unless an active credential already has its name in
   * its environment (one name, one person): a partial unique index decides, so two operators adding
   * the same name at once cannot both succeed. Returns false, changing nothing, in that case.
   */
  async add(reviewer: StoredReviewer, audit: ReviewerAuditEntry): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.insertInto('reviewerCredentials').values(toCredentialRow(reviewer)).execute();
        await trx.insertInto('reviewerAuditLog').values(toAuditRow(audit)).execute();
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Returns false, changing nothing, when no active credential has that id. */
  async revoke(id: string, at: string, audit: (revoked: StoredReviewer) => ReviewerAuditEntry): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const revoked = await trx.updateTable('reviewerCredentials').set({ revokedAt: at }).where('id', '=', id).where('revokedAt', 'is', null).returningAll().executeTakeFirst();
      if (!revoked) return false;
      await trx.insertInto('reviewerAuditLog').values(toAuditRow(audit(fromCredentialRow(revoked)))).execute();
      return true;
    });
  }

  /** The newest `limit` entries, oldest first. */
  auditLog(limit: number): Promise<RecordedReviewerAuditEntry[]> {
    return this.readAuditLog(this.db.selectFrom('reviewerAuditLog').selectAll(), limit);
  }
}

function toCredentialRow({ groups, ...reviewer }: StoredReviewer): ReviewerCredentialRow {
  return { ...reviewer, groups: JSON.stringify(groups) };
}

function fromCredentialRow({ groups, ...reviewer }: ReviewerCredentialRow): StoredReviewer {
  return { ...reviewer, groups: JSON.parse(groups) as string[] };
}

/** better-sqlite3 and pg name a unique-constraint violation differently. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

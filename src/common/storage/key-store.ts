import type { ExpressionBuilder, Insertable, Kysely } from 'kysely';
import type { KeyEnvironment } from '../keys/api-key';
import { CredentialStore, toAuditRow } from './credential-store';
import type { AuditDetails, KeyAuditAction, KeyAuditRow, StoredKey, Tables } from './tables';

/** Who did what to which key, and when. Never carries a secret or a hash. */
export interface KeyAuditEntry {
  at: string;
  actor: string;
  action: KeyAuditAction;
  keyId: string;
  organizationId: string;
  environment: KeyEnvironment;
  details: AuditDetails;
}

export interface RecordedAuditEntry extends KeyAuditEntry {
  id: number;
}

/** Ends an active key either now (revokedAt) or later (expiresAt). */
export interface KeyEnding {
  id: string;
  revokedAt?: string;
  expiresAt?: string;
}

/** One operator action: at most one key ended, at most one key added, and the audit entries describing it. */
export interface KeyChange {
  at: string;
  end?: KeyEnding;
  add?: StoredKey;
  audit: KeyAuditEntry[];
}

export interface AuditQuery {
  keyId?: string;
  /** The newest entries are kept; they are returned oldest first. */
  limit: number;
}

/**
 * Persistence of API keys and their audit log; only hashes are ever stored. The decisions live in
 * KeyService; this class is also the DI token.
 */
export class KeyStore extends CredentialStore<'apiKeys', StoredKey, StoredKey> {
  constructor(db: Kysely<Tables>) {
    super(db, () => db.selectFrom('apiKeys').selectAll(), (row) => row);
  }

  /**
   * Applies a change in one transaction. Returns false, changing nothing, when the key to end is
   * not active at `change.at` (unknown, revoked or expired).
   */
  async apply(change: KeyChange): Promise<boolean> {
    // Each transaction writes before it reads, so SQLite's deferred BEGIN takes the write lock
    // (waiting up to busy_timeout) without ever holding a snapshot that another process outdates.
    return this.db.transaction().execute(async (trx) => {
      const { end, add } = change;
      if (end) {
        const ended = await trx
          .updateTable('apiKeys')
          .set({ revokedAt: end.revokedAt, expiresAt: end.expiresAt })
          .where('id', '=', end.id)
          .where(activeAt(change.at))
          .executeTakeFirst();
        // Nothing was written yet, so committing the empty transaction changes nothing.
        if (ended.numUpdatedRows !== 1n) return false;
      }
      if (add) await trx.insertInto('apiKeys').values(add).execute();
      if (change.audit.length > 0) await trx.insertInto('keyAuditLog').values(change.audit.map(toKeyAuditRow)).execute();
      return true;
    });
  }

  /** Whether any key of the environment works at `at`. */
  async hasActiveKey(environment: KeyEnvironment, at: string): Promise<boolean> {
    const found = await this.db.selectFrom('apiKeys').select('id').where('environment', '=', environment).where(activeAt(at)).limit(1).executeTakeFirst();
    return found !== undefined;
  }

  /** Moves last_used_at forward to `at`; never backwards. */
  async recordUse(id: string, at: Date): Promise<void> {
    const iso = at.toISOString();
    await this.db
      .updateTable('apiKeys')
      .set({ lastUsedAt: iso })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', iso)]))
      .execute();
  }

  async auditLog(query: AuditQuery): Promise<RecordedAuditEntry[]> {
    let log = this.db.selectFrom('keyAuditLog').selectAll();
    if (query.keyId !== undefined) log = log.where('keyId', '=', query.keyId);
    const entries = await this.readAuditLog(log, query.limit);
    return entries.map(({ org, env, ...entry }) => ({ ...entry, organizationId: org, environment: env }));
  }
}

/** Neither revoked nor past its grace period at `at`. */
function activeAt(at: string) {
  return (eb: ExpressionBuilder<Tables, 'apiKeys'>) => eb.and([eb('revokedAt', 'is', null), eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', at)])]);
}

function toKeyAuditRow({ organizationId, environment, ...entry }: KeyAuditEntry): Insertable<KeyAuditRow> {
  return toAuditRow({ ...entry, org: organizationId, env: environment });
}

import type { Insertable, Kysely, Selectable } from 'kysely';
import type { KeyEnvironment } from '../keys/api-key';
import type { ApiKeyRow, KeyAuditRow, Tables } from './tables';

export interface StoredKey {
  id: string;
  organizationId: string;
  environment: KeyEnvironment;
  prefix: string;
  hash: Buffer;
  createdAt: string;
  revokedAt: string | null;
  /** Set by a rotation with a grace period: the key stops working at this instant. */
  expiresAt: string | null;
  /** Refreshed at most once a minute per API process, so it is approximate by design. */
  lastUsedAt: string | null;
}

export type KeyAuditAction = 'issue' | 'revoke' | 'rotate';

/** Who did what to which key, and when. Never carries a secret or a hash. */
export interface KeyAuditEntry {
  at: string;
  actor: string;
  action: KeyAuditAction;
  keyId: string;
  organizationId: string;
  environment: KeyEnvironment;
  details: Record<string, string | number | null>;
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
export class KeyStore {
  constructor(private readonly db: Kysely<Tables>) {}

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
          .updateTable('api_keys')
          .set({ revoked_at: end.revokedAt, expires_at: end.expiresAt })
          .where('id', '=', end.id)
          .where('revoked_at', 'is', null)
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', change.at)]))
          .executeTakeFirst();
        // Nothing was written yet, so committing the empty transaction changes nothing.
        if (ended.numUpdatedRows !== 1n) return false;
      }
      if (add) await trx.insertInto('api_keys').values(toKeyRow(add)).execute();
      if (change.audit.length > 0) await trx.insertInto('key_audit_log').values(change.audit.map(toAuditRow)).execute();
      return true;
    });
  }

  async findByHash(hash: Buffer): Promise<StoredKey | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirst();
    return row && fromKeyRow(row);
  }

  async findById(id: string): Promise<StoredKey | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row && fromKeyRow(row);
  }

  async list(): Promise<StoredKey[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(fromKeyRow);
  }

  /** Moves last_used_at forward to `at`; never backwards. */
  async recordUse(id: string, at: Date): Promise<void> {
    const iso = at.toISOString();
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: iso })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', iso)]))
      .execute();
  }

  async auditLog(query: AuditQuery): Promise<RecordedAuditEntry[]> {
    let newest = this.db.selectFrom('key_audit_log').selectAll().orderBy('id', 'desc').limit(query.limit);
    if (query.keyId !== undefined) newest = newest.where('key_id', '=', query.keyId);
    const rows = await this.db.selectFrom(newest.as('newest')).selectAll().orderBy('id').execute();
    return rows.map(fromAuditRow);
  }
}

function toKeyRow(key: StoredKey): ApiKeyRow {
  return {
    id: key.id,
    organization_id: key.organizationId,
    environment: key.environment,
    prefix: key.prefix,
    hash: key.hash,
    created_at: key.createdAt,
    revoked_at: key.revokedAt,
    expires_at: key.expiresAt,
    last_used_at: key.lastUsedAt,
  };
}

function fromKeyRow(row: ApiKeyRow): StoredKey {
  return {
    id: row.id,
    organizationId: row.organization_id,
    environment: row.environment,
    prefix: row.prefix,
    hash: row.hash,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
  };
}

function toAuditRow(entry: KeyAuditEntry): Insertable<KeyAuditRow> {
  return {
    at: entry.at,
    actor: entry.actor,
    action: entry.action,
    key_id: entry.keyId,
    org: entry.organizationId,
    env: entry.environment,
    details: JSON.stringify(entry.details),
  };
}

function fromAuditRow(row: Selectable<KeyAuditRow>): RecordedAuditEntry {
  return {
    id: row.id,
    at: row.at,
    actor: row.actor,
    action: row.action,
    keyId: row.key_id,
    organizationId: row.org,
    environment: row.env,
    details: JSON.parse(row.details) as RecordedAuditEntry['details'],
  };
}

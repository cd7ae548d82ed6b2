import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import type { KeyEnvironment } from '../keys/api-key';
import { KeyStore, type AuditQuery, type KeyAuditAction, type KeyChange, type RecordedAuditEntry, type StoredKey } from './key-store';

interface KeyRow {
  id: string;
  organization_id: string;
  environment: KeyEnvironment;
  prefix: string;
  hash: Buffer;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
  last_used_at: string | null;
}

interface AuditRow {
  id: number;
  at: string;
  actor: string;
  action: KeyAuditAction;
  key_id: string;
  org: string;
  env: KeyEnvironment;
  details: string;
}

/** Applied in order at open; PRAGMA user_version records how many have run. Append only. */
const MIGRATIONS = [
  `CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     organization_id TEXT NOT NULL,
     environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
     prefix TEXT NOT NULL,
     hash BLOB NOT NULL UNIQUE,
     created_at TEXT NOT NULL,
     revoked_at TEXT
   )`,
  `ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
   ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;
   CREATE TABLE key_audit_log (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     at TEXT NOT NULL,
     actor TEXT NOT NULL,
     action TEXT NOT NULL,
     key_id TEXT NOT NULL,
     org TEXT NOT NULL,
     env TEXT NOT NULL,
     details TEXT NOT NULL
   );
   CREATE INDEX key_audit_log_key_id ON key_audit_log (key_id)`,
];

// Timestamps are stored as Date.toISOString() text, whose lexical order is chronological.
const ACTIVE_AT = 'revoked_at IS NULL AND (expires_at IS NULL OR expires_at > @at)';

/** Key store in one SQLite file, shared safely by the API processes and the operator CLI (WAL). */
export class SqliteKeyStore extends KeyStore {
  private readonly db: Database.Database;

  constructor(file: string) {
    super();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.migrate();
  }

  private migrate(): void {
    const apply = this.db.transaction(() => {
      // Read inside the write transaction so two processes opening a new file cannot both migrate.
      const version = this.db.pragma('user_version', { simple: true }) as number;
      MIGRATIONS.slice(version).forEach((sql) => this.db.exec(sql));
      this.db.pragma(`user_version = ${MIGRATIONS.length}`);
    });
    apply.immediate();
  }

  async apply(change: KeyChange): Promise<boolean> {
    const run = this.db.transaction((): boolean => {
      if (change.end) {
        const ended = this.db
          .prepare(
            `UPDATE api_keys SET revoked_at = COALESCE(@revoked_at, revoked_at), expires_at = COALESCE(@expires_at, expires_at)
             WHERE id = @id AND ${ACTIVE_AT}`,
          )
          .run({ id: change.end.id, revoked_at: change.end.revokedAt ?? null, expires_at: change.end.expiresAt ?? null, at: change.at });
        if (ended.changes !== 1) return false;
      }
      if (change.add) {
        this.db
          .prepare(
            `INSERT INTO api_keys (id, organization_id, environment, prefix, hash, created_at, revoked_at, expires_at, last_used_at)
             VALUES (@id, @organization_id, @environment, @prefix, @hash, @created_at, @revoked_at, @expires_at, @last_used_at)`,
          )
          .run(toKeyRow(change.add));
      }
      const insertAudit = this.db.prepare(
        `INSERT INTO key_audit_log (at, actor, action, key_id, org, env, details)
         VALUES (@at, @actor, @action, @key_id, @org, @env, @details)`,
      );
      for (const entry of change.audit) {
        insertAudit.run({
          at: entry.at,
          actor: entry.actor,
          action: entry.action,
          key_id: entry.keyId,
          org: entry.organizationId,
          env: entry.environment,
          details: JSON.stringify(entry.details),
        });
      }
      return true;
    });
    return run.immediate();
  }

  async findByHash(hash: Buffer): Promise<StoredKey | undefined> {
    const row = this.db.prepare('SELECT * FROM api_keys WHERE hash = ?').get(hash) as KeyRow | undefined;
    return row && fromKeyRow(row);
  }

  async findById(id: string): Promise<StoredKey | undefined> {
    const row = this.db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id) as KeyRow | undefined;
    return row && fromKeyRow(row);
  }

  async list(): Promise<StoredKey[]> {
    const rows = this.db.prepare('SELECT * FROM api_keys ORDER BY created_at, id').all() as KeyRow[];
    return rows.map(fromKeyRow);
  }

  async recordUse(id: string, at: Date): Promise<void> {
    this.db
      .prepare('UPDATE api_keys SET last_used_at = @at WHERE id = @id AND (last_used_at IS NULL OR last_used_at < @at)')
      .run({ id, at: at.toISOString() });
  }

  async auditLog(query: AuditQuery): Promise<RecordedAuditEntry[]> {
    const rows = this.db
      .prepare(
        `SELECT * FROM (
           SELECT * FROM key_audit_log WHERE @key_id IS NULL OR key_id = @key_id ORDER BY id DESC LIMIT @limit
         ) ORDER BY id`,
      )
      .all({ key_id: query.keyId ?? null, limit: query.limit }) as AuditRow[];
    return rows.map((row) => ({
      id: row.id,
      at: row.at,
      actor: row.actor,
      action: row.action,
      keyId: row.key_id,
      organizationId: row.org,
      environment: row.env,
      details: JSON.parse(row.details) as RecordedAuditEntry['details'],
    }));
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

function toKeyRow(key: StoredKey): KeyRow {
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

function fromKeyRow(row: KeyRow): StoredKey {
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

import { Pool, type PoolClient } from 'pg';
import type { KeyEnvironment } from '../keys/api-key';
import { KeyStore, type AuditQuery, type KeyAuditAction, type KeyChange, type RecordedAuditEntry, type StoredKey } from './key-store';

interface KeyRow {
  id: string;
  organization_id: string;
  environment: KeyEnvironment;
  prefix: string;
  hash: Buffer;
  created_at: Date;
  revoked_at: Date | null;
  expires_at: Date | null;
  last_used_at: Date | null;
}

interface AuditRow {
  id: string;
  at: Date;
  actor: string;
  action: KeyAuditAction;
  key_id: string;
  org: string;
  env: KeyEnvironment;
  details: RecordedAuditEntry['details'];
}

/** Applied in order at open; key_store_migrations records which have run. Append only. */
const MIGRATIONS = [
  `CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     organization_id TEXT NOT NULL,
     environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
     prefix TEXT NOT NULL,
     hash BYTEA NOT NULL UNIQUE,
     created_at TIMESTAMPTZ NOT NULL,
     revoked_at TIMESTAMPTZ,
     expires_at TIMESTAMPTZ,
     last_used_at TIMESTAMPTZ
   );
   CREATE TABLE key_audit_log (
     id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     at TIMESTAMPTZ NOT NULL,
     actor TEXT NOT NULL,
     action TEXT NOT NULL,
     key_id TEXT NOT NULL,
     org TEXT NOT NULL,
     env TEXT NOT NULL,
     details JSONB NOT NULL
   );
   CREATE INDEX key_audit_log_key_id ON key_audit_log (key_id)`,
];

/** Serialises migrations when several API processes start against one new database. */
const MIGRATION_LOCK_ID = 0x4153_5341_594b;

/** A slow database must fail a request quickly rather than hold it (and its socket) open. */
const QUERY_TIMEOUT_MS = 5000;

/** Key store in PostgreSQL, for several API instances and the operator CLI sharing one database. */
export class PostgresKeyStore extends KeyStore {
  private constructor(private readonly pool: Pool) {
    super();
  }

  /** Connects and brings the schema up to date before returning. */
  static async open(connectionString: string): Promise<PostgresKeyStore> {
    const pool = new Pool({ connectionString, max: 10, connectionTimeoutMillis: QUERY_TIMEOUT_MS, query_timeout: QUERY_TIMEOUT_MS });
    // An idle connection dropped by the server emits here; without a listener the process would
    // crash. The pool discards that connection and the next query opens a new one.
    pool.on('error', () => undefined);
    try {
      await inTransaction(pool, (client) => migrate(client));
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new PostgresKeyStore(pool);
  }

  async apply(change: KeyChange): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      if (change.end) {
        const ended = await client.query(
          `UPDATE api_keys SET revoked_at = COALESCE($2::timestamptz, revoked_at), expires_at = COALESCE($3::timestamptz, expires_at)
           WHERE id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $4::timestamptz)`,
          [change.end.id, change.end.revokedAt ?? null, change.end.expiresAt ?? null, change.at],
        );
        if (ended.rowCount !== 1) return false;
      }
      if (change.add) {
        const key = change.add;
        await client.query(
          `INSERT INTO api_keys (id, organization_id, environment, prefix, hash, created_at, revoked_at, expires_at, last_used_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [key.id, key.organizationId, key.environment, key.prefix, key.hash, key.createdAt, key.revokedAt, key.expiresAt, key.lastUsedAt],
        );
      }
      for (const entry of change.audit) {
        await client.query(
          `INSERT INTO key_audit_log (at, actor, action, key_id, org, env, details) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [entry.at, entry.actor, entry.action, entry.keyId, entry.organizationId, entry.environment, JSON.stringify(entry.details)],
        );
      }
      return true;
    });
  }

  async findByHash(hash: Buffer): Promise<StoredKey | undefined> {
    const { rows } = await this.pool.query<KeyRow>('SELECT * FROM api_keys WHERE hash = $1', [hash]);
    return rows[0] && fromKeyRow(rows[0]);
  }

  async findById(id: string): Promise<StoredKey | undefined> {
    const { rows } = await this.pool.query<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
    return rows[0] && fromKeyRow(rows[0]);
  }

  async list(): Promise<StoredKey[]> {
    const { rows } = await this.pool.query<KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id');
    return rows.map(fromKeyRow);
  }

  async recordUse(id: string, at: Date): Promise<void> {
    await this.pool.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)', [
      id,
      at.toISOString(),
    ]);
  }

  async auditLog(query: AuditQuery): Promise<RecordedAuditEntry[]> {
    const { rows } = await this.pool.query<AuditRow>(
      `SELECT * FROM (
         SELECT * FROM key_audit_log WHERE $1::text IS NULL OR key_id = $1 ORDER BY id DESC LIMIT $2
       ) newest ORDER BY id`,
      [query.keyId ?? null, query.limit],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      at: row.at.toISOString(),
      actor: row.actor,
      action: row.action,
      keyId: row.key_id,
      organizationId: row.org,
      environment: row.env,
      details: row.details,
    }));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

async function migrate(client: PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
  await client.query(
    'CREATE TABLE IF NOT EXISTS key_store_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
  );
  const { rows } = await client.query<{ version: number }>('SELECT COALESCE(MAX(version), 0) AS version FROM key_store_migrations');
  for (let version = rows[0].version; version < MIGRATIONS.length; version++) {
    await client.query(MIGRATIONS[version]);
    await client.query('INSERT INTO key_store_migrations (version) VALUES ($1)', [version + 1]);
  }
}

/** Runs `work` in one transaction; a false result or an error rolls it back. */
async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query(result === false ? 'ROLLBACK' : 'COMMIT');
    return result;
  } catch (error) {
    broken = await client.query('ROLLBACK').then(
      () => false,
      () => true,
    );
    throw error;
  } finally {
    // A connection that cannot even roll back is discarded rather than handed to the next caller.
    client.release(broken);
  }
}

function fromKeyRow(row: KeyRow): StoredKey {
  return {
    id: row.id,
    organizationId: row.organization_id,
    environment: row.environment,
    prefix: row.prefix,
    hash: row.hash,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
    expiresAt: row.expires_at?.toISOString() ?? null,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  };
}

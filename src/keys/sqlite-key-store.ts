import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import type { KeyEnvironment } from './api-key';
import { KeyStore, type StoredKey } from './key-store';

interface KeyRow {
  id: string;
  organization_id: string;
  environment: KeyEnvironment;
  prefix: string;
  hash: Buffer;
  created_at: string;
  revoked_at: string | null;
}

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
];

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
    const version = this.db.pragma('user_version', { simple: true }) as number;
    const apply = this.db.transaction(() => {
      MIGRATIONS.slice(version).forEach((sql) => this.db.exec(sql));
      this.db.pragma(`user_version = ${MIGRATIONS.length}`);
    });
    if (version < MIGRATIONS.length) apply.immediate();
  }

  async insert(key: StoredKey): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO api_keys (id, organization_id, environment, prefix, hash, created_at, revoked_at)
         VALUES (@id, @organization_id, @environment, @prefix, @hash, @created_at, @revoked_at)`,
      )
      .run(toRow(key));
  }

  async findByHash(hash: Buffer): Promise<StoredKey | undefined> {
    const row = this.db.prepare('SELECT * FROM api_keys WHERE hash = ?').get(hash) as KeyRow | undefined;
    return row && fromRow(row);
  }

  async list(): Promise<StoredKey[]> {
    const rows = this.db.prepare('SELECT * FROM api_keys ORDER BY created_at, id').all() as KeyRow[];
    return rows.map(fromRow);
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    const result = this.db
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
      .run(at.toISOString(), id);
    return result.changes === 1;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

function toRow(key: StoredKey): KeyRow {
  return {
    id: key.id,
    organization_id: key.organizationId,
    environment: key.environment,
    prefix: key.prefix,
    hash: key.hash,
    created_at: key.createdAt,
    revoked_at: key.revokedAt,
  };
}

function fromRow(row: KeyRow): StoredKey {
  return {
    id: row.id,
    organizationId: row.organization_id,
    environment: row.environment,
    prefix: row.prefix,
    hash: row.hash,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

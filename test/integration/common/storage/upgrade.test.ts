import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { KeyAuthenticator } from '../../../../src/api/platform/keys/key-authenticator';
import { AppConfig } from '../../../../src/common/config/app-config';
import { hashCredential } from '../../../../src/common/credentials/credential-format';
import { API_KEYS } from '../../../../src/common/keys/api-key';
import { KeyService } from '../../../../src/common/keys/key-service';
import { Storage } from '../../../../src/common/storage/storage';
import { startTestPostgres, type TestPostgres } from '../../../support/test-postgres';

/**
 * The previous release's webhook tables, the same in both dialects but for column types, and the row
 * recording their migration: `migrationRow` is that insert's columns and values, as SQLite's table
 * had no default for applied_at.
 */
function previousReleaseWebhookTables(types: { timestamp: string; json: string }, migrationRow: string): string {
  return `CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
    url TEXT NOT NULL, events ${types.json} NOT NULL, description TEXT, secret TEXT NOT NULL, previous_secret TEXT,
    previous_secret_expires_at ${types.timestamp}, disabled_at ${types.timestamp}, disabled_reason TEXT, created_at ${types.timestamp} NOT NULL, updated_at ${types.timestamp} NOT NULL
  );
  CREATE INDEX webhook_endpoints_owner ON webhook_endpoints (organization_id, environment);
  CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, event_id TEXT NOT NULL, event_type TEXT NOT NULL, attempt INTEGER NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('succeeded', 'failed')),
    http_status INTEGER, error TEXT, attempted_at ${types.timestamp} NOT NULL, duration_ms INTEGER NOT NULL
  );
  CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, attempted_at);
  INSERT INTO webhook_store_migrations ${migrationRow};`;
}

/** The schema as the release before the storage layer created it, statement for statement. */
const PREVIOUS_RELEASE_SQLITE = `
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
    prefix TEXT NOT NULL,
    hash BLOB NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  );
  ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
  ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;
  CREATE TABLE key_audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL, key_id TEXT NOT NULL, org TEXT NOT NULL, env TEXT NOT NULL, details TEXT NOT NULL
  );
  CREATE INDEX key_audit_log_key_id ON key_audit_log (key_id);
  PRAGMA user_version = 2;
  CREATE TABLE webhook_store_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL);
  ${previousReleaseWebhookTables({ timestamp: 'TEXT', json: 'TEXT' }, "(version, applied_at) VALUES (1, '2025-01-01T00:00:00.000Z')")}
`;

const PREVIOUS_RELEASE_POSTGRES = `
  CREATE TABLE key_store_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now());
  CREATE TABLE api_keys (
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
    at TIMESTAMPTZ NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL, key_id TEXT NOT NULL, org TEXT NOT NULL, env TEXT NOT NULL, details JSONB NOT NULL
  );
  CREATE INDEX key_audit_log_key_id ON key_audit_log (key_id);
  INSERT INTO key_store_migrations (version) VALUES (1);
  CREATE TABLE webhook_store_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now());
  ${previousReleaseWebhookTables({ timestamp: 'TIMESTAMPTZ', json: 'JSONB' }, '(version) VALUES (1)')}
`;

const KEY = 'assay_live_abcdefghijklmnopqrstuvwxyz012345';

/** One row per table, with the values the previous release wrote (ISO timestamps, JSON text). */
const ROWS: Array<[table: string, row: Record<string, unknown>]> = [
  [
    'api_keys',
    {
      id: 'key_old',
      organization_id: 'acme',
      environment: 'live',
      prefix: API_KEYS.format.visiblePrefix(KEY),
      hash: hashCredential(KEY),
      created_at: '2025-01-01T00:00:00.000Z',
      revoked_at: null,
      expires_at: '2031-01-01T00:00:00.000Z',
      last_used_at: '2025-01-02T03:04:05.678Z',
    },
  ],
  ['key_audit_log', { at: '2025-01-01T00:00:00.000Z', actor: 'alice', action: 'issue', key_id: 'key_old', org: 'acme', env: 'live', details: '{}' }],
  [
    'key_audit_log',
    { at: '2025-01-01T01:00:00.000Z', actor: 'alice', action: 'rotate', key_id: 'key_old', org: 'acme', env: 'live', details: '{"grace_seconds":3600,"reason":"scheduled"}' },
  ],
  [
    'webhook_endpoints',
    {
      id: 'we_old',
      organization_id: 'acme',
      environment: 'live',
      url: 'https://hooks.example.com/assay',
      events: '["ai_task.completed","assessment.reviewed"]',
      description: 'billing',
      secret: 'whsec_current',
      previous_secret: 'whsec_before',
      previous_secret_expires_at: '2025-01-03T00:00:00.000Z',
      disabled_at: null,
      disabled_reason: null,
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-02T00:00:00.000Z',
    },
  ],
  [
    'webhook_deliveries',
    {
      id: 'wd_old',
      endpoint_id: 'we_old',
      event_id: 'evt_1',
      event_type: 'ai_task.completed',
      attempt: 1,
      outcome: 'failed',
      http_status: 500,
      error: 'HTTP 500',
      attempted_at: '2025-01-01T00:00:01.000Z',
      duration_ms: 12,
    },
  ],
];

let postgres: TestPostgres;
const tempDirs: string[] = [];

beforeAll(async () => {
  postgres = await startTestPostgres();
});

afterAll(async () => {
  await postgres?.stop();
  tempDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

/** A database as the previous release left it, holding ROWS; returns the configuration that opens it. */
const previousReleases: Array<[string, () => Promise<AppConfig>]> = [
  [
    'SQLite',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-previous-'));
      tempDirs.push(dir);
      const db = new Database(path.join(dir, 'keys.sqlite'));
      db.pragma('journal_mode = WAL');
      db.exec(PREVIOUS_RELEASE_SQLITE);
      for (const [table, row] of ROWS) {
        db.prepare(`INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row).map(() => '?').join(', ')})`).run(...Object.values(row));
      }
      db.close();
      return new AppConfig({ DATA_DIR: dir });
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const url = await postgres.createDatabase();
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(PREVIOUS_RELEASE_POSTGRES);
        for (const [table, row] of ROWS) {
          const placeholders = Object.keys(row).map((_, index) => `$${index + 1}`);
          await client.query(`INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${placeholders.join(', ')})`, Object.values(row));
        }
      } finally {
        await client.end();
      }
      return new AppConfig({ DATABASE_URL: url });
    },
  ],
];

describe.each(previousReleases)('a %s database from the release before the storage layer', (_name, makePreviousRelease) => {
  let config: AppConfig;
  let storage: Storage;

  beforeEach(async () => {
    config = await makePreviousRelease();
    storage = await Storage.open(config);
  });

  afterEach(async () => {
    await storage.close();
  });

  it('reads its keys and audit log as they were, and the key still authenticates', async () => {
    expect(await storage.keys.findById('key_old')).toEqual({
      id: 'key_old',
      organizationId: 'acme',
      environment: 'live',
      prefix: API_KEYS.format.visiblePrefix(KEY),
      hash: hashCredential(KEY),
      createdAt: '2025-01-01T00:00:00.000Z',
      revokedAt: null,
      expiresAt: '2031-01-01T00:00:00.000Z',
      lastUsedAt: '2025-01-02T03:04:05.678Z',
    });
    const clock = () => new Date('2030-01-01T00:00:00.000Z');
    expect(await new KeyAuthenticator(storage.keys, 'assay', 0, { clock }).authenticate(KEY)).toEqual({ organizationId: 'acme', environment: 'live', keyId: 'key_old' });
    expect(await storage.keys.auditLog({ limit: 10 })).toEqual([
      { id: 1, at: '2025-01-01T00:00:00.000Z', actor: 'alice', action: 'issue', keyId: 'key_old', organizationId: 'acme', environment: 'live', details: {} },
      {
        id: 2,
        at: '2025-01-01T01:00:00.000Z',
        actor: 'alice',
        action: 'rotate',
        keyId: 'key_old',
        organizationId: 'acme',
        environment: 'live',
        details: { grace_seconds: 3600, reason: 'scheduled' },
      },
    ]);
  });

  it('reads its webhook endpoints and deliveries as they were', async () => {
    expect(await storage.webhooks.find('we_old')).toEqual({
      id: 'we_old',
      organizationId: 'acme',
      environment: 'live',
      url: 'https://hooks.example.com/assay',
      events: ['ai_task.completed', 'assessment.reviewed'],
      description: 'billing',
      secret: 'whsec_current',
      previousSecret: 'whsec_before',
      previousSecretExpiresAt: '2025-01-03T00:00:00.000Z',
      disabledAt: null,
      disabledReason: null,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-02T00:00:00.000Z',
    });
    expect(await storage.webhooks.listDeliveries('we_old', 10)).toEqual([
      {
        id: 'wd_old',
        endpointId: 'we_old',
        eventId: 'evt_1',
        eventType: 'ai_task.completed',
        attempt: 1,
        outcome: 'failed',
        httpStatus: 500,
        error: 'HTTP 500',
        attemptedAt: '2025-01-01T00:00:01.000Z',
        durationMs: 12,
      },
    ]);
  });

  it('writes after the old rows, and keeps everything across reopening', async () => {
    const service = new KeyService(storage.keys, 'assay', { actor: 'bob' });
    expect(await service.revoke('key_old', 'upgrade test')).toBe(true);
    const issued = await service.issue('acme', 'test');
    await storage.close();
    storage = await Storage.open(config);
    expect((await storage.keys.auditLog({ limit: 10 })).map((entry) => [entry.id, entry.action, entry.keyId])).toEqual([
      [1, 'issue', 'key_old'],
      [2, 'rotate', 'key_old'],
      [3, 'revoke', 'key_old'],
      [4, 'issue', issued.id],
    ]);
    expect(await new KeyAuthenticator(storage.keys, 'assay', 0).authenticate(KEY)).toBeUndefined();
    expect(await new KeyAuthenticator(storage.keys, 'assay', 0).authenticate(issued.key)).toMatchObject({ keyId: issued.id });
  });
});

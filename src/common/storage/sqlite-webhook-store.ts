import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import type { KeyEnvironment } from '../keys/api-key';
import type { WebhookEventType } from '../../contract';
import { WebhookStore, type DeliveryOutcome, type SecretRotation, type StoredWebhookEndpoint, type WebhookDeliveryAttempt } from './webhook-store';

interface EndpointRow {
  id: string;
  organization_id: string;
  environment: KeyEnvironment;
  url: string;
  events: string;
  description: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: WebhookEventType;
  attempt: number;
  outcome: DeliveryOutcome;
  http_status: number | null;
  error: string | null;
  attempted_at: string;
  duration_ms: number;
}

/**
 * Applied in order at open; webhook_store_migrations records which have run. Append only. The
 * file's PRAGMA user_version belongs to the key store, which shares the file, so it is not used here.
 */
const MIGRATIONS = [
  `CREATE TABLE webhook_endpoints (
     id TEXT PRIMARY KEY,
     organization_id TEXT NOT NULL,
     environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
     url TEXT NOT NULL,
     events TEXT NOT NULL,
     description TEXT,
     secret TEXT NOT NULL,
     previous_secret TEXT,
     previous_secret_expires_at TEXT,
     disabled_at TEXT,
     disabled_reason TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX webhook_endpoints_owner ON webhook_endpoints (organization_id, environment);
   CREATE TABLE webhook_deliveries (
     id TEXT PRIMARY KEY,
     endpoint_id TEXT NOT NULL,
     event_id TEXT NOT NULL,
     event_type TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     outcome TEXT NOT NULL CHECK (outcome IN ('succeeded', 'failed')),
     http_status INTEGER,
     error TEXT,
     attempted_at TEXT NOT NULL,
     duration_ms INTEGER NOT NULL
   );
   CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, attempted_at)`,
];

/** Webhook endpoints and deliveries in the key store's SQLite file (WAL, shared by API and worker processes). */
export class SqliteWebhookStore extends WebhookStore {
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
      this.db.exec('CREATE TABLE IF NOT EXISTS webhook_store_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
      const { version } = this.db.prepare('SELECT COALESCE(MAX(version), 0) AS version FROM webhook_store_migrations').get() as { version: number };
      for (let next = version; next < MIGRATIONS.length; next++) {
        this.db.exec(MIGRATIONS[next]);
        this.db.prepare('INSERT INTO webhook_store_migrations (version, applied_at) VALUES (?, ?)').run(next + 1, new Date().toISOString());
      }
    });
    // Immediate: two processes opening a new file cannot both migrate.
    apply.immediate();
  }

  async create(endpoint: StoredWebhookEndpoint): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO webhook_endpoints (id, organization_id, environment, url, events, description, secret, previous_secret,
           previous_secret_expires_at, disabled_at, disabled_reason, created_at, updated_at)
         VALUES (@id, @organization_id, @environment, @url, @events, @description, @secret, @previous_secret,
           @previous_secret_expires_at, @disabled_at, @disabled_reason, @created_at, @updated_at)`,
      )
      .run(toEndpointRow(endpoint));
  }

  async find(id: string): Promise<StoredWebhookEndpoint | undefined> {
    const row = this.db.prepare('SELECT * FROM webhook_endpoints WHERE id = ?').get(id) as EndpointRow | undefined;
    return row && fromEndpointRow(row);
  }

  async listFor(organizationId: string, environment: KeyEnvironment): Promise<StoredWebhookEndpoint[]> {
    const rows = this.db
      .prepare('SELECT * FROM webhook_endpoints WHERE organization_id = ? AND environment = ? ORDER BY created_at, id')
      .all(organizationId, environment) as EndpointRow[];
    return rows.map(fromEndpointRow);
  }

  async delete(id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM webhook_endpoints WHERE id = ?').run(id).changes === 1;
  }

  async rotateSecret(rotation: SecretRotation): Promise<StoredWebhookEndpoint | undefined> {
    this.db
      .prepare(
        `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = @expires_at, secret = @secret, updated_at = @at
         WHERE id = @id`,
      )
      .run({ id: rotation.id, secret: rotation.secret, expires_at: rotation.previousSecretExpiresAt, at: rotation.at });
    return this.find(rotation.id);
  }

  async disable(id: string, reason: string, at: string): Promise<void> {
    this.db
      .prepare('UPDATE webhook_endpoints SET disabled_at = @at, disabled_reason = @reason, updated_at = @at WHERE id = @id AND disabled_at IS NULL')
      .run({ id, reason, at });
  }

  async recordDelivery(attempt: WebhookDeliveryAttempt): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, attempt, outcome, http_status, error, attempted_at, duration_ms)
         VALUES (@id, @endpoint_id, @event_id, @event_type, @attempt, @outcome, @http_status, @error, @attempted_at, @duration_ms)`,
      )
      .run({
        id: attempt.id,
        endpoint_id: attempt.endpointId,
        event_id: attempt.eventId,
        event_type: attempt.eventType,
        attempt: attempt.attempt,
        outcome: attempt.outcome,
        http_status: attempt.httpStatus,
        error: attempt.error,
        attempted_at: attempt.attemptedAt,
        duration_ms: attempt.durationMs,
      });
  }

  async listDeliveries(endpointId: string, limit: number): Promise<WebhookDeliveryAttempt[]> {
    const rows = this.db
      .prepare('SELECT * FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY attempted_at DESC, id DESC LIMIT ?')
      .all(endpointId, limit) as DeliveryRow[];
    return rows.map((row) => ({
      id: row.id,
      endpointId: row.endpoint_id,
      eventId: row.event_id,
      eventType: row.event_type,
      attempt: row.attempt,
      outcome: row.outcome,
      httpStatus: row.http_status,
      error: row.error,
      attemptedAt: row.attempted_at,
      durationMs: row.duration_ms,
    }));
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

function toEndpointRow(endpoint: StoredWebhookEndpoint): EndpointRow {
  return {
    id: endpoint.id,
    organization_id: endpoint.organizationId,
    environment: endpoint.environment,
    url: endpoint.url,
    events: JSON.stringify(endpoint.events),
    description: endpoint.description,
    secret: endpoint.secret,
    previous_secret: endpoint.previousSecret,
    previous_secret_expires_at: endpoint.previousSecretExpiresAt,
    disabled_at: endpoint.disabledAt,
    disabled_reason: endpoint.disabledReason,
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
  };
}

function fromEndpointRow(row: EndpointRow): StoredWebhookEndpoint {
  return {
    id: row.id,
    organizationId: row.organization_id,
    environment: row.environment,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventType[],
    description: row.description,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    disabledAt: row.disabled_at,
    disabledReason: row.disabled_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

import { Pool, type PoolClient } from 'pg';
import type { KeyEnvironment } from '../keys/api-key';
import type { WebhookEventType } from '../../contract';
import { WebhookStore, type DeliveryOutcome, type SecretRotation, type StoredWebhookEndpoint, type WebhookDeliveryAttempt } from './webhook-store';

interface EndpointRow {
  id: string;
  organization_id: string;
  environment: KeyEnvironment;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
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
  attempted_at: Date;
  duration_ms: number;
}

/** Applied in order at open; webhook_store_migrations records which have run. Append only. */
const MIGRATIONS = [
  `CREATE TABLE webhook_endpoints (
     id TEXT PRIMARY KEY,
     organization_id TEXT NOT NULL,
     environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
     url TEXT NOT NULL,
     events JSONB NOT NULL,
     description TEXT,
     secret TEXT NOT NULL,
     previous_secret TEXT,
     previous_secret_expires_at TIMESTAMPTZ,
     disabled_at TIMESTAMPTZ,
     disabled_reason TEXT,
     created_at TIMESTAMPTZ NOT NULL,
     updated_at TIMESTAMPTZ NOT NULL
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
     attempted_at TIMESTAMPTZ NOT NULL,
     duration_ms INTEGER NOT NULL
   );
   CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, attempted_at)`,
];

/** Not the key store's lock: the two stores migrate independently. */
const MIGRATION_LOCK_ID = 0x4153_5341_5957;

const QUERY_TIMEOUT_MS = 5000;

/** Webhook endpoints and deliveries in the key store's PostgreSQL database. */
export class PostgresWebhookStore extends WebhookStore {
  private constructor(private readonly pool: Pool) {
    super();
  }

  /** Connects and brings the schema up to date before returning. */
  static async open(connectionString: string): Promise<PostgresWebhookStore> {
    // allowExitOnIdle: a worker process keeps this store for its lifetime and never closes it.
    const pool = new Pool({ connectionString, max: 10, connectionTimeoutMillis: QUERY_TIMEOUT_MS, query_timeout: QUERY_TIMEOUT_MS, allowExitOnIdle: true });
    // A dropped idle connection emits here; the pool discards it and the next query reconnects.
    pool.on('error', () => undefined);
    const client = await pool.connect().catch(async (error: unknown) => {
      await pool.end();
      throw error;
    });
    try {
      await client.query('BEGIN');
      await migrate(client);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release(true);
      await pool.end();
      throw error;
    }
    client.release();
    return new PostgresWebhookStore(pool);
  }

  async create(endpoint: StoredWebhookEndpoint): Promise<void> {
    await this.pool.query(
      `INSERT INTO webhook_endpoints (id, organization_id, environment, url, events, description, secret, previous_secret,
         previous_secret_expires_at, disabled_at, disabled_reason, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        endpoint.id,
        endpoint.organizationId,
        endpoint.environment,
        endpoint.url,
        JSON.stringify(endpoint.events),
        endpoint.description,
        endpoint.secret,
        endpoint.previousSecret,
        endpoint.previousSecretExpiresAt,
        endpoint.disabledAt,
        endpoint.disabledReason,
        endpoint.createdAt,
        endpoint.updatedAt,
      ],
    );
  }

  async find(id: string): Promise<StoredWebhookEndpoint | undefined> {
    const { rows } = await this.pool.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = $1', [id]);
    return rows[0] && fromEndpointRow(rows[0]);
  }

  async listFor(organizationId: string, environment: KeyEnvironment): Promise<StoredWebhookEndpoint[]> {
    const { rows } = await this.pool.query<EndpointRow>(
      'SELECT * FROM webhook_endpoints WHERE organization_id = $1 AND environment = $2 ORDER BY created_at, id',
      [organizationId, environment],
    );
    return rows.map(fromEndpointRow);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.pool.query('DELETE FROM webhook_endpoints WHERE id = $1', [id]);
    return result.rowCount === 1;
  }

  async rotateSecret(rotation: SecretRotation): Promise<StoredWebhookEndpoint | undefined> {
    const { rows } = await this.pool.query<EndpointRow>(
      `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = $3, secret = $2, updated_at = $4
       WHERE id = $1 RETURNING *`,
      [rotation.id, rotation.secret, rotation.previousSecretExpiresAt, rotation.at],
    );
    return rows[0] && fromEndpointRow(rows[0]);
  }

  async disable(id: string, reason: string, at: string): Promise<void> {
    await this.pool.query(
      'UPDATE webhook_endpoints SET disabled_at = $3, disabled_reason = $2, updated_at = $3 WHERE id = $1 AND disabled_at IS NULL',
      [id, reason, at],
    );
  }

  async recordDelivery(attempt: WebhookDeliveryAttempt): Promise<void> {
    await this.pool.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, attempt, outcome, http_status, error, attempted_at, duration_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        attempt.id,
        attempt.endpointId,
        attempt.eventId,
        attempt.eventType,
        attempt.attempt,
        attempt.outcome,
        attempt.httpStatus,
        attempt.error,
        attempt.attemptedAt,
        attempt.durationMs,
      ],
    );
  }

  async listDeliveries(endpointId: string, limit: number): Promise<WebhookDeliveryAttempt[]> {
    const { rows } = await this.pool.query<DeliveryRow>(
      'SELECT * FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY attempted_at DESC, id DESC LIMIT $2',
      [endpointId, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      endpointId: row.endpoint_id,
      eventId: row.event_id,
      eventType: row.event_type,
      attempt: row.attempt,
      outcome: row.outcome,
      httpStatus: row.http_status,
      error: row.error,
      attemptedAt: row.attempted_at.toISOString(),
      durationMs: row.duration_ms,
    }));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

async function migrate(client: PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
  await client.query(
    'CREATE TABLE IF NOT EXISTS webhook_store_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
  );
  const { rows } = await client.query<{ version: number }>('SELECT COALESCE(MAX(version), 0) AS version FROM webhook_store_migrations');
  for (let version = rows[0].version; version < MIGRATIONS.length; version++) {
    await client.query(MIGRATIONS[version]);
    await client.query('INSERT INTO webhook_store_migrations (version) VALUES ($1)', [version + 1]);
  }
}

function fromEndpointRow(row: EndpointRow): StoredWebhookEndpoint {
  return {
    id: row.id,
    organizationId: row.organization_id,
    environment: row.environment,
    url: row.url,
    events: row.events,
    description: row.description,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at?.toISOString() ?? null,
    disabledAt: row.disabled_at?.toISOString() ?? null,
    disabledReason: row.disabled_reason,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

import type { Kysely } from 'kysely';
import type { WebhookEventType } from '../../contract';
import type { KeyEnvironment } from '../keys/api-key';
import type { Tables, WebhookDeliveryRow, WebhookEndpointRow } from './tables';

/**
 * A receiving URL of one organisation in one environment. The signing secret is stored as is:
 * the worker needs it to sign (HMAC is symmetric), so unlike API keys it cannot be hashed.
 */
export interface StoredWebhookEndpoint {
  id: string;
  organizationId: string;
  environment: KeyEnvironment;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  secret: string;
  /** The secret before the last rotation; it keeps signing until previousSecretExpiresAt. */
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  /** Set when the receiver answered 410 Gone: nothing more is sent. */
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export type DeliveryOutcome = 'succeeded' | 'failed';

/** One HTTP attempt of one event to one endpoint. Never carries the body or a secret. */
export interface WebhookDeliveryAttempt {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: WebhookEventType;
  attempt: number;
  outcome: DeliveryOutcome;
  /** Absent when no answer came (timeout, refused connection, refused address). */
  httpStatus: number | null;
  error: string | null;
  attemptedAt: string;
  durationMs: number;
}

export interface SecretRotation {
  id: string;
  secret: string;
  previousSecretExpiresAt: string;
  at: string;
}

/** Persistence of webhook endpoints and delivery attempts, next to the keys; this class is also the DI token. */
export class WebhookStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async create(endpoint: StoredWebhookEndpoint): Promise<void> {
    await this.db.insertInto('webhook_endpoints').values(toEndpointRow(endpoint)).execute();
  }

  async find(id: string): Promise<StoredWebhookEndpoint | undefined> {
    const row = await this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    return row && fromEndpointRow(row);
  }

  /** Oldest first. */
  async listFor(organizationId: string, environment: KeyEnvironment): Promise<StoredWebhookEndpoint[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('environment', '=', environment)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(fromEndpointRow);
  }

  async delete(id: string): Promise<boolean> {
    const deleted = await this.db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
    return deleted.numDeletedRows === 1n;
  }

  /** The current secret becomes the previous one; returns the endpoint as it now is. */
  async rotateSecret(rotation: SecretRotation): Promise<StoredWebhookEndpoint | undefined> {
    const row = await this.db
      .updateTable('webhook_endpoints')
      .set((eb) => ({
        previous_secret: eb.ref('secret'),
        previous_secret_expires_at: rotation.previousSecretExpiresAt,
        secret: rotation.secret,
        updated_at: rotation.at,
      }))
      .where('id', '=', rotation.id)
      .returningAll()
      .executeTakeFirst();
    return row && fromEndpointRow(row);
  }

  async disable(id: string, reason: string, at: string): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({ disabled_at: at, disabled_reason: reason, updated_at: at })
      .where('id', '=', id)
      .where('disabled_at', 'is', null)
      .execute();
  }

  async recordDelivery(attempt: WebhookDeliveryAttempt): Promise<void> {
    await this.db.insertInto('webhook_deliveries').values(toDeliveryRow(attempt)).execute();
  }

  /** Newest first. */
  async listDeliveries(endpointId: string, limit: number): Promise<WebhookDeliveryAttempt[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .orderBy('attempted_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(fromDeliveryRow);
  }
}

function toEndpointRow(endpoint: StoredWebhookEndpoint): WebhookEndpointRow {
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

function fromEndpointRow(row: WebhookEndpointRow): StoredWebhookEndpoint {
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

function toDeliveryRow(attempt: WebhookDeliveryAttempt): WebhookDeliveryRow {
  return {
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
  };
}

function fromDeliveryRow(row: WebhookDeliveryRow): WebhookDeliveryAttempt {
  return {
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
  };
}

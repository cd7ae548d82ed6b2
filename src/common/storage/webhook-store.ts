import type { Kysely } from 'kysely';
import type { DeliveredWebhookEventType, WebhookEventType } from '../../contract';
import type { KeyEnvironment } from '../keys/api-key';
import type { Tables, WebhookEndpointRow } from './tables';

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
  eventType: DeliveredWebhookEventType;
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
    await this.db
      .insertInto('webhookEndpoints')
      .values({ ...endpoint, events: JSON.stringify(endpoint.events) })
      .execute();
  }

  async find(id: string): Promise<StoredWebhookEndpoint | undefined> {
    const row = await this.db.selectFrom('webhookEndpoints').selectAll().where('id', '=', id).executeTakeFirst();
    return row && fromEndpointRow(row);
  }

  /** Oldest first. */
  async listFor(organizationId: string, environment: KeyEnvironment): Promise<StoredWebhookEndpoint[]> {
    const rows = await this.db
      .selectFrom('webhookEndpoints')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('environment', '=', environment)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
    return rows.map(fromEndpointRow);
  }

  async delete(id: string): Promise<boolean> {
    const deleted = await this.db.deleteFrom('webhookEndpoints').where('id', '=', id).executeTakeFirst();
    return deleted.numDeletedRows === 1n;
  }

  /** The current secret becomes the previous one; returns the endpoint as it now is. */
  async rotateSecret(rotation: SecretRotation): Promise<StoredWebhookEndpoint | undefined> {
    const row = await this.db
      .updateTable('webhookEndpoints')
      .set((eb) => ({
        previousSecret: eb.ref('secret'),
        previousSecretExpiresAt: rotation.previousSecretExpiresAt,
        secret: rotation.secret,
        updatedAt: rotation.at,
      }))
      .where('id', '=', rotation.id)
      .returningAll()
      .executeTakeFirst();
    return row && fromEndpointRow(row);
  }

  async disable(id: string, reason: string, at: string): Promise<void> {
    await this.db
      .updateTable('webhookEndpoints')
      .set({ disabledAt: at, disabledReason: reason, updatedAt: at })
      .where('id', '=', id)
      .where('disabledAt', 'is', null)
      .execute();
  }

  /** Takes a disabled endpoint back into service; returns it as it now is, or undefined when there is none with that id. */
  async enable(id: string, at: string): Promise<StoredWebhookEndpoint | undefined> {
    await this.db.updateTable('webhookEndpoints').set({ disabledAt: null, disabledReason: null, updatedAt: at }).where('id', '=', id).where('disabledAt', 'is not', null).execute();
    return this.find(id);
  }

  async findDelivery(endpointId: string, deliveryId: string): Promise<WebhookDeliveryAttempt | undefined> {
    return this.db.selectFrom('webhookDeliveries').selectAll().where('id', '=', deliveryId).where('endpointId', '=', endpointId).executeTakeFirst();
  }

  async recordDelivery(attempt: WebhookDeliveryAttempt): Promise<void> {
    await this.db.insertInto('webhookDeliveries').values(attempt).execute();
  }

  /** Newest first. */
  listDeliveries(endpointId: string, limit: number): Promise<WebhookDeliveryAttempt[]> {
    return this.db
      .selectFrom('webhookDeliveries')
      .selectAll()
      .where('endpointId', '=', endpointId)
      .orderBy('attemptedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}

function fromEndpointRow(row: WebhookEndpointRow): StoredWebhookEndpoint {
  return { ...row, events: JSON.parse(row.events) as WebhookEventType[] };
}

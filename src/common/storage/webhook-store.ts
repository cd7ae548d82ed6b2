import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { WebhookEventType } from '../../contract';
import type { SecretSealer } from '../crypto/secret-sealer';
import type { KeyEnvironment } from '../keys/api-key';
import type { EventOwner, StoredWebhookEndpoint, Tables, WebhookDeliveryAttempt, WebhookEndpointRow, WebhookRedelivery } from './tables';

/** An endpoint as far as choosing who gets an event needs it. */
export type WebhookSubscription = Pick<StoredWebhookEndpoint, 'id' | 'events'>;

/** What pruneBefore removes, each older than its cutoff. */
export interface PruneCutoffs {
  /** Delivery records and suppressed events. */
  records: string;
  /** Recorded redeliveries: a retry window earlier, since a redelivery's workflow runs up to that long before its retention starts. */
  redeliveries: string;
}

export interface SecretRotation {
  id: string;
  secret: string;
  previousSecretExpiresAt: string;
  at: string;
}

/** Persistence of webhook endpoints, delivery attempts, suppressed events and redeliveries, next to the keys; this class is also the DI token. */
export class WebhookStore {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly sealer: SecretSealer,
  ) {}

  async create(endpoint: StoredWebhookEndpoint): Promise<void> {
    await this.db
      .insertInto('webhookEndpoints')
      .values({
        ...endpoint,
        events: JSON.stringify(endpoint.events),
        secret: await this.sealer.seal(endpoint.secret),
        previousSecret: endpoint.previousSecret === null ? null : await this.sealer.seal(endpoint.previousSecret),
      })
      .execute();
  }

  async find(id: string): Promise<StoredWebhookEndpoint | undefined> {
    const row = await this.db.selectFrom('webhookEndpoints').selectAll().where('id', '=', id).executeTakeFirst();
    return row && this.fromRow(row);
  }

  /**
   * Encrypts with the current key every secret stored in plaintext (before keys were configured)
   * or under an older key, so older keys can be retired. Each API instance runs it as it starts
   * (the keys change with a deployment), not every process that opens the database: a CLI command
   * would scan every endpoint. A row changed meanwhile (a rotation) is left to the next start.
   */
  async resealSecrets(): Promise<number> {
    let resealed = 0;
    for (const row of await this.db.selectFrom('webhookEndpoints').select(['id', 'secret', 'previousSecret']).execute()) {
      const staleSecret = await this.sealer.isStale(row.secret);
      const stalePrevious = row.previousSecret !== null && (await this.sealer.isStale(row.previousSecret));
      if (!staleSecret && !stalePrevious) continue;
      const previous = row.previousSecret === null ? null : await this.sealer.seal(await this.sealer.open(row.previousSecret));
      const updated = await this.db
        .updateTable('webhookEndpoints')
        .set({ secret: await this.sealer.seal(await this.sealer.open(row.secret)), previousSecret: previous })
        .where('id', '=', row.id)
        .where('secret', '=', row.secret)
        .where((eb) => (row.previousSecret === null ? eb('previousSecret', 'is', null) : eb('previousSecret', '=', row.previousSecret)))
        .executeTakeFirst();
      resealed += Number(updated.numUpdatedRows);
    }
    return resealed;
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
    return Promise.all(rows.map((row) => this.fromRow(row)));
  }

  /**
   * The organisation's enabled endpoints in this environment, oldest first, with the events each
   * takes. Who gets an event needs no signing secret, so none is read or decrypted: each delivery
   * reads its own endpoint's.
   */
  async enabledSubscriptions(organizationId: string, environment: KeyEnvironment): Promise<WebhookSubscription[]> {
    const rows = await this.db
      .selectFrom('webhookEndpoints')
      .select(['id', 'events'])
      .where('organizationId', '=', organizationId)
      .where('environment', '=', environment)
      .where('disabledAt', 'is', null)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ id: row.id, events: eventsOf(row) }));
  }

  /** The endpoint and its delivery records. */
  async delete(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('webhookDeliveries').where('endpointId', '=', id).execute();
      const deleted = await trx.deleteFrom('webhookEndpoints').where('id', '=', id).executeTakeFirst();
      return deleted.numDeletedRows === 1n;
    });
  }

  /** The current secret becomes the previous one; returns the endpoint as it now is. */
  async rotateSecret(rotation: SecretRotation): Promise<StoredWebhookEndpoint | undefined> {
    const sealed = await this.sealer.seal(rotation.secret);
    const row = await this.db
      .updateTable('webhookEndpoints')
      .set((eb) => ({
        previousSecret: eb.ref('secret'),
        previousSecretExpiresAt: rotation.previousSecretExpiresAt,
        secret: sealed,
        updatedAt: rotation.at,
      }))
      .where('id', '=', rotation.id)
      .returningAll()
      .executeTakeFirst();
    return row && this.fromRow(row);
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

  /** The delivery records of an erased resource's events, to the owner's endpoints only. */
  async deleteDeliveriesOfEvents(owner: EventOwner, eventIds: readonly string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.db
      .deleteFrom('webhookDeliveries')
      .where('eventId', 'in', eventIds)
      .where('endpointId', 'in', (eb) =>
        eb.selectFrom('webhookEndpoints').select('id').where('organizationId', '=', owner.organizationId).where('environment', '=', owner.environment),
      )
      .execute();
  }

  /** From now on no attempt sends these events of the owner (isSuppressed); repeating it is harmless. */
  async suppressEvents(owner: EventOwner, eventIds: readonly string[], at: string): Promise<void> {
    if (eventIds.length === 0) return;
    await this.db
      .insertInto('webhookSuppressedEvents')
      .values(eventIds.map((eventId) => ({ ...owner, eventId, suppressedAt: at })))
      .onConflict((conflict) => conflict.columns(['organizationId', 'environment', 'eventId']).doNothing())
      .execute();
  }

  isSuppressed(owner: EventOwner, eventId: string): Promise<boolean> {
    return this.anySuppressed(owner, [eventId]);
  }

  /** Whether any of these events of the owner is suppressed: the owner erased their resource within the retention period. */
  async anySuppressed(owner: EventOwner, eventIds: readonly string[]): Promise<boolean> {
    if (eventIds.length === 0) return false;
    const row = await ofOwnerEvents(this.db.selectFrom('webhookSuppressedEvents').select('eventId'), owner, eventIds).executeTakeFirst();
    return row !== undefined;
  }

  async recordRedelivery(redelivery: WebhookRedelivery): Promise<void> {
    await this.db.insertInto('webhookRedeliveries').values(redelivery).execute();
  }

  /** The workflow ids of the owner's recorded redeliveries of these events. */
  async redeliveriesOf(owner: EventOwner, eventIds: readonly string[]): Promise<string[]> {
    if (eventIds.length === 0) return [];
    const rows = await ofOwnerEvents(this.db.selectFrom('webhookRedeliveries').select('workflowId'), owner, eventIds).execute();
    return rows.map((row) => row.workflowId);
  }

  /** The records of the owner's redeliveries of these events, once their workflows are deleted. */
  async forgetRedeliveries(owner: EventOwner, eventIds: readonly string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.db
      .deleteFrom('webhookRedeliveries')
      .where('organizationId', '=', owner.organizationId)
      .where('environment', '=', owner.environment)
      .where('eventId', 'in', eventIds)
      .execute();
  }

  /** What is past its cutoff (the retention period, as their events' resources are); returns how many of each went. */
  async pruneBefore(cutoffs: PruneCutoffs): Promise<{ deliveries: number; suppressedEvents: number; redeliveries: number }> {
    const deliveries = await this.db.deleteFrom('webhookDeliveries').where('attemptedAt', '<', cutoffs.records).executeTakeFirst();
    const suppressed = await this.db.deleteFrom('webhookSuppressedEvents').where('suppressedAt', '<', cutoffs.records).executeTakeFirst();
    const redeliveries = await this.db.deleteFrom('webhookRedeliveries').where('startedAt', '<', cutoffs.redeliveries).executeTakeFirst();
    return { deliveries: Number(deliveries.numDeletedRows), suppressedEvents: Number(suppressed.numDeletedRows), redeliveries: Number(redeliveries.numDeletedRows) };
  }

  private async fromRow(row: WebhookEndpointRow): Promise<StoredWebhookEndpoint> {
    return {
      ...row,
      events: eventsOf(row),
      secret: await this.sealer.open(row.secret),
      previousSecret: row.previousSecret === null ? null : await this.sealer.open(row.previousSecret),
    };
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

function eventsOf(row: Pick<WebhookEndpointRow, 'events'>): WebhookEventType[] {
  return JSON.parse(row.events) as WebhookEventType[];
}

/**
 * The owner's rows of these events, in a table kept per event. Conditions name their column with
 * sql.ref, as CredentialStore's do: on a table left generic, Kysely cannot work out the type of a
 * column's value. The SQL is as with plain column names.
 */
function ofOwnerEvents<Table extends 'webhookSuppressedEvents' | 'webhookRedeliveries', Row>(rows: SelectQueryBuilder<Tables, Table, Row>, owner: EventOwner, eventIds: readonly string[]) {
  return rows.where(sql.ref('organizationId'), '=', owner.organizationId).where(sql.ref('environment'), '=', owner.environment).where(sql.ref('eventId'), 'in', eventIds);
}

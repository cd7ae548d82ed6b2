import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { WorkflowNotFoundError } from '@temporalio/client';
import { newPrefixedId } from '../../common/ids/prefixed-ulid';
import { readWorkflowStartInput } from '../platform/temporal/workflow-start-input';
import { isGrpcNotFound } from '../../common/temporal/grpc-status';
import {
  TEST_WEBHOOK_EVENT_TYPE,
  WEBHOOK_EVENT_ID_PREFIX,
  WEBHOOK_EVENT_WORKFLOW_TYPE,
  webhookEventWorkflowId,
  webhookRedeliveryWorkflowId,
  type WebhookEventInput,
} from '../../contract';
import { TemporalClients } from '../platform/temporal/temporal-clients';
import { AppConfig } from '../../common/config/app-config';
import { ApiError } from '../platform/http/api-error';
import type { Caller } from '../platform/keys/key-authenticator';
import { parseCreateWebhookEndpointRequest } from './create-webhook-endpoint.request';
import { toWebhookDeliveryResource, toWebhookEndpointResource, withSecret } from './webhook-endpoint-resource';
import { isWebhookDeliveryId, isWebhookEndpointId, newWebhookEndpointId } from '../../common/webhooks/webhook-ids';
import { PREVIOUS_SECRET_OVERLAP_MS } from '../../common/webhooks/webhook-secrets';
import { generateWebhookSecret } from '../../common/webhooks/webhook-signing';
import { WebhookStore } from '../../common/storage/webhook-store';
import type { StoredWebhookEndpoint } from '../../common/storage/tables';
import { WebhookHostUnresolvedError, WebhookUrlRefusedError, vetWebhookUrl, type HostResolver } from '../../common/webhooks/webhook-url-policy';
import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret, WebhookEventQueued } from '../../contract/wire';

/** Every event goes to each endpoint; a small bound keeps one organisation's fan-out (and its retries) small. */
export const MAX_ENDPOINTS_PER_ENVIRONMENT = 20;
const DELIVERIES_SHOWN = 100;

export const WEBHOOK_RESOLVER = Symbol('webhook-resolver');

function refuseIfDisabled(endpoint: StoredWebhookEndpoint): void {
  if (endpoint.disabledAt !== null) {
    throw new ApiError(409, 'ENDPOINT_DISABLED', `Webhook endpoint ${endpoint.id} is disabled (${endpoint.disabledReason ?? 'no reason recorded'}); enable it first`);
  }
}

@Injectable()
export class WebhooksService {
  constructor(
    private readonly store: WebhookStore,
    private readonly config: AppConfig,
    @Inject(WEBHOOK_RESOLVER) private readonly resolve: HostResolver,
    private readonly temporal: TemporalClients,
  ) {}

  async create(caller: Caller, body: unknown): Promise<WebhookEndpointWithSecret> {
    const request = parseCreateWebhookEndpointRequest(body);
    await this.vet(request.url, caller);
    if ((await this.store.listFor(caller.organizationId, caller.environment)).length >= MAX_ENDPOINTS_PER_ENVIRONMENT) {
      throw ApiError.invalidRequest(`At most ${MAX_ENDPOINTS_PER_ENVIRONMENT} webhook endpoints per environment; delete one first`);
    }
    const now = new Date().toISOString();
    const endpoint: StoredWebhookEndpoint = {
      id: newWebhookEndpointId(),
      organizationId: caller.organizationId,
      environment: caller.environment,
      url: request.url,
      events: request.events,
      description: request.description ?? null,
      secret: generateWebhookSecret(),
      previousSecret: null,
      previousSecretExpiresAt: null,
      disabledAt: null,
      disabledReason: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.store.create(endpoint);
    return withSecret(endpoint);
  }

  async list(caller: Caller): Promise<{ data: WebhookEndpoint[] }> {
    const endpoints = await this.store.listFor(caller.organizationId, caller.environment);
    return { data: endpoints.map(toWebhookEndpointResource) };
  }

  async get(caller: Caller, id: string): Promise<WebhookEndpoint> {
    return toWebhookEndpointResource(await this.find(caller, id));
  }

  async delete(caller: Caller, id: string): Promise<void> {
    await this.find(caller, id);
    await this.store.delete(id);
  }

  /** A new secret signs from now on; the old one signs alongside it for 24 h, so receivers can switch over. */
  async rotateSecret(caller: Caller, id: string): Promise<WebhookEndpointWithSecret> {
    await this.find(caller, id);
    const now = new Date();
    const rotated = await this.store.rotateSecret({
      id,
      secret: generateWebhookSecret(),
      previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_OVERLAP_MS).toISOString(),
      at: now.toISOString(),
    });
    if (!rotated) throw ApiError.notFound(`Webhook endpoint ${id}`);
    return withSecret(rotated);
  }

  async deliveries(caller: Caller, id: string): Promise<{ data: WebhookDelivery[] }> {
    await this.find(caller, id);
    const attempts = await this.store.listDeliveries(id, DELIVERIES_SHOWN);
    return { data: attempts.map(toWebhookDeliveryResource) };
  }

  /** Takes an endpoint disabled after a 410 back into service, keeping its secret; an enabled one is answered as it is. */
  async enable(caller: Caller, id: string): Promise<WebhookEndpoint> {
    await this.find(caller, id);
    const enabled = await this.store.enable(id, new Date().toISOString());
    if (!enabled) throw ApiError.notFound(`Webhook endpoint ${id}`);
    return toWebhookEndpointResource(enabled);
  }

  /** Sends a `webhook.test` event to this endpoint alone, durably like every event; its attempts appear in the delivery log. */
  async sendTestEvent(caller: Caller, id: string): Promise<WebhookEventQueued> {
    const endpoint = await this.find(caller, id);
    refuseIfDisabled(endpoint);
    const eventId = `${WEBHOOK_EVENT_ID_PREFIX}${randomUUID().replace(/-/g, '')}`;
    const workflowId = webhookEventWorkflowId(caller.organizationId, eventId);
    await this.startEvent(caller, workflowId, {
      eventId,
      type: TEST_WEBHOOK_EVENT_TYPE,
      createdAt: new Date().toISOString(),
      organizationId: caller.organizationId,
      resourceId: id,
      sourceWorkflowId: workflowId,
      endpointId: id,
    });
    return { event_id: eventId, endpoint_id: id };
  }

  /**
   * Sends the event of one recorded attempt to this endpoint again: the same webhook-id and body
   * (rebuilt from the event's own workflow input), so a receiver that already has it can drop it.
   * The redelivery's workflow carries the body, so the erasure of the event's resource must find
   * it: it is recorded before it starts (WorkflowEraser deletes the recorded ones after suppressing
   * the event), and deleted here if the event turns out suppressed once it started, which covers
   * an erasure that read the records between the two.
   */
  async redeliver(caller: Caller, id: string, deliveryId: string): Promise<WebhookEventQueued> {
    const endpoint = await this.find(caller, id);
    refuseIfDisabled(endpoint);
    // Any other value is no delivery's id; it never reaches the database (PostgreSQL refuses a NUL in a query with an error).
    const delivery = isWebhookDeliveryId(deliveryId) ? await this.store.findDelivery(id, deliveryId) : undefined;
    if (!delivery) throw ApiError.notFound(`Delivery ${deliveryId} of webhook endpoint ${id}`);
    const { eventId } = delivery;
    const client = this.temporal.client(caller.environment);
    const original = await this.temporal
      .withDeadline(() => readWorkflowStartInput<WebhookEventInput>(client, webhookEventWorkflowId(caller.organizationId, eventId)))
      .catch((error: unknown) => {
        if (error instanceof WorkflowNotFoundError || isGrpcNotFound(error)) {
          throw ApiError.notFound(`Event ${eventId} (its history is past retention)`);
        }
        throw error;
      });
    const owner = { organizationId: caller.organizationId, environment: caller.environment };
    const workflowId = webhookRedeliveryWorkflowId(caller.organizationId, eventId, newPrefixedId('rd_'));
    await this.store.recordRedelivery({ ...owner, eventId, workflowId, startedAt: new Date().toISOString() });
    await this.startEvent(caller, workflowId, { ...original, endpointId: id });
    if (await this.store.isSuppressed(owner, eventId)) {
      await this.temporal.deleteRun(caller.environment, workflowId);
      throw ApiError.notFound(`Event ${eventId} (its resource was erased)`);
    }
    return { event_id: eventId, endpoint_id: id };
  }

  private async startEvent(caller: Caller, workflowId: string, input: WebhookEventInput): Promise<void> {
    await this.temporal.start(caller.environment, WEBHOOK_EVENT_WORKFLOW_TYPE, workflowId, [input]);
  }

  /** Another organisation's or environment's endpoint is as unknown as a missing one (404, never 403). */
  private async find(caller: Caller, id: string): Promise<StoredWebhookEndpoint> {
    const endpoint = isWebhookEndpointId(id) ? await this.store.find(id) : undefined;
    if (!endpoint || endpoint.organizationId !== caller.organizationId || endpoint.environment !== caller.environment) {
      throw ApiError.notFound(`Webhook endpoint ${id}`);
    }
    return endpoint;
  }

  private async vet(url: string, caller: Caller): Promise<void> {
    try {
      await vetWebhookUrl(url, caller.environment, { allowInsecureSandbox: this.config.values.WEBHOOKS_ALLOW_INSECURE_SANDBOX, resolve: this.resolve });
    } catch (error) {
      if (error instanceof WebhookUrlRefusedError || error instanceof WebhookHostUnresolvedError) throw ApiError.invalidRequest(error.message);
      throw error;
    }
  }
}

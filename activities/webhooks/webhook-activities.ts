import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { parseRetryAfter } from '../../src/sdk/retry-after';
import type { KeyEnvironment } from '../../src/common/keys/api-key';
import { newWebhookDeliveryId } from '../../src/common/webhooks/webhook-ids';
import { signingSecrets } from '../../src/common/webhooks/webhook-secrets';
import { signWebhook } from '../../src/common/webhooks/webhook-signing';
import type { WebhookStore } from '../../src/common/storage/webhook-store';
import type { DeliveryOutcome } from '../../src/common/storage/tables';
import { WebhookHostUnresolvedError, WebhookUrlRefusedError, vetWebhookUrl, type HostResolver, type VettedTarget } from '../../src/common/webhooks/webhook-url-policy';
import {
  TEST_WEBHOOK_EVENT_TYPE,
  type DeliveredWebhookEventType,
  type FinalDeliveryErrorCode,
  type WebhookActivities,
  type WebhookEventInput,
  type WebhookEventType,
  type WebhookRetrySchedule,
  type WebhookSubscriberQuery,
} from '../../src/contract';
import { nextDeliveryDelayMs } from './delivery-delay';
import { readEventResource } from './event-resource';
import { createOperatorCloseSweep } from './operator-close-sweep';
import { sendWebhook } from './webhook-sender';

export interface WebhookActivityDependencies {
  store: WebhookStore;
  retry: WebhookRetrySchedule;
  allowInsecureSandbox: boolean;
  /** How long the namespaces keep a closed workflow (RETENTION_PERIOD): the events' resources carry expires_at. */
  retentionMs: number;
  /** Which environment a namespace serves; events and endpoints never cross environments. */
  environmentOf: (namespace: string) => KeyEnvironment;
  resolve?: HostResolver;
}

export function createWebhookActivities(deps: WebhookActivityDependencies): WebhookActivities {
  const currentEnvironment = () => deps.environmentOf(Context.current().info.namespace);
  const subscribedEndpoints = async (organizationId: string, type: WebhookEventInput['type']) =>
    (await deps.store.enabledSubscriptions(organizationId, currentEnvironment())).filter((endpoint) => accepts(endpoint.events, type));
  /** The one endpoint a test event or a redelivery was sent to, if it is still the organisation's and enabled. */
  const targetEndpoint = async (input: WebhookEventInput & { endpointId: string }) => {
    const endpoint = await deps.store.find(input.endpointId);
    const usable = endpoint && endpoint.organizationId === input.organizationId && endpoint.environment === currentEnvironment() && endpoint.disabledAt === null && accepts(endpoint.events, input.type);
    return usable ? [endpoint] : [];
  };
  const hasWebhookSubscribers = async (query: WebhookSubscriberQuery) => (await subscribedEndpoints(query.organizationId, query.type)).length > 0;
  const sweep = createOperatorCloseSweep(hasWebhookSubscribers, deps.retentionMs);
  return {
    hasWebhookSubscribers,

    /**
     * The sweep schedule's run also prunes delivery records and suppressed events past the
     * retention period, as Temporal deletes their resources, and the records of redeliveries once
     * their workflows are gone too: those run up to the retry window before their retention starts.
     */
    async sweepOperatorCloses(input) {
      const retentionStart = Date.now() - deps.retentionMs;
      await deps.store.pruneBefore({ records: new Date(retentionStart).toISOString(), redeliveries: new Date(retentionStart - deps.retry.windowMs).toISOString() });
      return sweep.sweepOperatorCloses(input);
    },

    /** Subscribed, enabled endpoints of the event's organisation and environment, and the payload they all get. */
    async prepareWebhookEvent(input) {
      const context = Context.current();
      const endpoints = input.endpointId === undefined ? await subscribedEndpoints(input.organizationId, input.type) : await targetEndpoint({ ...input, endpointId: input.endpointId });
      if (endpoints.length === 0) return { body: '', endpointIds: [], retry: deps.retry };
      const data = input.type === TEST_WEBHOOK_EVENT_TYPE ? testEventData(input.endpointId) : await readEventResource(context.client, { ...input, type: input.type }, deps.retentionMs);
      // Erased on its owner's request (DELETE): nothing is sent about it any more.
      if (!data) return { body: '', endpointIds: [], retry: deps.retry };
      const body = JSON.stringify({ id: input.eventId, type: input.type, created_at: input.createdAt, data });
      return { body, endpointIds: endpoints.map((endpoint) => endpoint.id), retry: deps.retry };
    },

    /**
     * One attempt, recorded whatever happens. 2xx delivers; 410 disables the endpoint and stops;
     * anything else fails the attempt with the delay to the next one (backoff with jitter, or the
     * receiver's Retry-After). Signed at send time, so each attempt's timestamp is fresh. The event
     * of an erased resource is not sent and leaves no record: 'skipped', in the event's history.
     */
    async deliverWebhook(input) {
      const context = Context.current();
      const attempt = context.info.attempt;
      const endpoint = await deps.store.find(input.endpointId);
      if (!endpoint || endpoint.disabledAt !== null || !accepts(endpoint.events, input.eventType)) return 'skipped';
      const startedAt = new Date();
      const record = (outcome: DeliveryOutcome, httpStatus: number | null, error: string | null) => {
        // One line per attempt, inside the attempt's span: the worker's log holds the trace id of each delivery.
        context.log.info('webhook delivery attempt', { eventId: input.eventId, endpointId: input.endpointId, attempt, outcome, httpStatus });
        context.metricMeter
          .createCounter('assay_webhook_delivery_attempts', undefined, 'Webhook delivery attempts, by event type and outcome')
          .add(1, { event_type: input.eventType, outcome });
        return deps.store.recordDelivery({
          id: newWebhookDeliveryId(),
          endpointId: input.endpointId,
          eventId: input.eventId,
          eventType: input.eventType,
          attempt,
          outcome,
          httpStatus,
          error,
          attemptedAt: startedAt.toISOString(),
          durationMs: Date.now() - startedAt.getTime(),
        });
      };
      const retryLater = (message: string, retryAfterMs?: number) =>
        ApplicationFailure.create({ message, type: 'DELIVERY_FAILED', nextRetryDelay: nextDeliveryDelayMs(attempt, input.retry, retryAfterMs) });

      let target: VettedTarget;
      try {
        target = await vetWebhookUrl(endpoint.url, endpoint.environment, { allowInsecureSandbox: deps.allowInsecureSandbox, resolve: deps.resolve });
      } catch (error) {
        if (!(error instanceof WebhookUrlRefusedError || error instanceof WebhookHostUnresolvedError)) throw error;
        await record('failed', null, error.message);
        if (error instanceof WebhookUrlRefusedError) throw ApplicationFailure.nonRetryable(error.message, 'ENDPOINT_REFUSED' satisfies FinalDeliveryErrorCode);
        throw retryLater(error.message);
      }

      // Checked last before sending: the resource may have been erased while this attempt waited,
      // failed earlier ones or resolved the host (its eraser suppresses the events before it cancels).
      if (await deps.store.isSuppressed(endpoint, input.eventId)) {
        context.log.info('webhook delivery suppressed: its resource was erased', { eventId: input.eventId, endpointId: input.endpointId, attempt });
        return 'skipped';
      }
      const timestamp = Math.floor(startedAt.getTime() / 1000);
      const headers = {
        'webhook-id': input.eventId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(signingSecrets(endpoint, startedAt), input.eventId, timestamp, input.body),
      };
      const response = await sendWebhook({ target, headers, body: input.body, signal: context.cancellationSignal }).catch(async (error: unknown) => {
        const message = `no answer: ${describeSendError(error)}`;
        await record('failed', null, message);
        throw retryLater(message);
      });
      if (response.status >= 200 && response.status < 300) {
        await record('succeeded', response.status, null);
        return 'delivered';
      }
      await record('failed', response.status, `HTTP ${response.status}`);
      if (response.status === 410) {
        await deps.store.disable(endpoint.id, 'The receiver answered 410 Gone', new Date().toISOString());
        throw ApplicationFailure.nonRetryable('The receiver answered 410 Gone; the endpoint is now disabled', 'ENDPOINT_GONE' satisfies FinalDeliveryErrorCode);
      }
      throw retryLater(`HTTP ${response.status}`, parseRetryAfter(response.retryAfter, Date.now()));
    },
  };
}

/** Subscribed to the type; the test event is accepted by every endpoint, since it goes only where it is sent. */
function accepts(events: readonly WebhookEventType[], type: DeliveredWebhookEventType): boolean {
  return type === TEST_WEBHOOK_EVENT_TYPE || events.includes(type);
}

function testEventData(endpointId: string | undefined): { endpoint_id: string | undefined; message: string } {
  return { endpoint_id: endpointId, message: 'A test event, sent because you asked for one; it is signed like every event.' };
}

function describeSendError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return 'timed out or canceled';
  const code = (error as NodeJS.ErrnoException).code;
  return code ?? error.message;
}

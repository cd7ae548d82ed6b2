import { ActivityFailure, ApplicationFailure, log, proxyActivities } from '@temporalio/workflow';
import { DELIVERY_BACKOFF_COEFFICIENT, FINAL_DELIVERY_ERROR_CODES, type WebhookActivities, type WebhookEventInput, type WebhookEventSummary, type WebhookRetrySchedule } from '../src/contract';

const { prepareWebhookEvent } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  // The source task workflow may not have closed yet when the event starts: retried until it has.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

function deliveryActivity(retry: WebhookRetrySchedule) {
  return proxyActivities<WebhookActivities>({
    // 15 s per HTTP attempt inside; the rest covers DNS and recording the attempt.
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: retry.windowMs,
    // The activity picks every delay itself (backoff with jitter, Retry-After) through
    // nextRetryDelay; this policy applies when an attempt dies without saying (a crashed worker).
    retry: {
      initialInterval: retry.initialIntervalMs,
      backoffCoefficient: DELIVERY_BACKOFF_COEFFICIENT,
      maximumInterval: retry.maximumIntervalMs,
      nonRetryableErrorTypes: [...FINAL_DELIVERY_ERROR_CODES],
    },
  }).deliverWebhook;
}

/**
 * One event: read the resource once, then deliver the same signed bytes to every subscribed
 * endpoint in parallel, each delivery retried on its own schedule for up to the retry window.
 */
export async function webhookEventWorkflow(input: WebhookEventInput): Promise<WebhookEventSummary> {
  const prepared = await prepareWebhookEvent(input);
  const deliver = deliveryActivity(prepared.retry);
  const results = await Promise.allSettled(
    prepared.endpointIds.map((endpointId) =>
      deliver({ eventId: input.eventId, eventType: input.type, endpointId, body: prepared.body, retry: prepared.retry }),
    ),
  );
  const summary: WebhookEventSummary = { eventId: input.eventId, delivered: 0, skipped: 0, failed: 0 };
  results.forEach((result, index) => {
    if (result.status === 'fulfilled') {
      summary[result.value]++;
      return;
    }
    summary.failed++;
    log.warn('webhook delivery gave up', { eventId: input.eventId, endpointId: prepared.endpointIds[index], reason: failureType(result.reason) });
  });
  return summary;
}

function failureType(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure) return cause.type ?? cause.message;
  return cause instanceof Error ? cause.message : String(cause);
}

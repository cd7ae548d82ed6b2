import { DELIVERY_BACKOFF_COEFFICIENT, type WebhookRetrySchedule } from '../../src/contract';

/** ±25 %: receivers that failed together (an outage) do not all get their retries in the same second. */
const JITTER = 0.25;

/**
 * How long to wait after failed attempt number `attempt` (1-based): exponential backoff with
 * jitter, capped at the schedule's maximum; a receiver's Retry-After wins, within the same cap.
 */
export function nextDeliveryDelayMs(attempt: number, schedule: WebhookRetrySchedule, retryAfterMs?: number, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(retryAfterMs, 1000), schedule.maximumIntervalMs);
  const backoff = Math.min(schedule.initialIntervalMs * DELIVERY_BACKOFF_COEFFICIENT ** (attempt - 1), schedule.maximumIntervalMs);
  return Math.round(backoff * (1 - JITTER + 2 * JITTER * random()));
}

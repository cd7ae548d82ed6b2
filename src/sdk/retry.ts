import { delay } from './abortable-delay';
import { AssayApiError, AssayNetworkError, RequestTimeoutError } from './errors';
import type { RetryOptions } from './options';

/**
 * Runs `attempt` until it succeeds, fails for a reason a retry cannot fix, or runs out of retries.
 * Only safe for requests that are idempotent on the server, i.e. a create carrying one Idempotency-Key.
 */
export async function withRetries<T>(attempt: () => Promise<T>, options: RetryOptions, signal: AbortSignal | undefined): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      const wait = retry < options.maxRetries ? retryDelayMs(error, retry, options) : undefined;
      if (wait === undefined) throw error;
      await delay(wait, signal);
    }
  }
}

/** How long to wait before retry number `retry` (0-based), or undefined when the error is final. */
export function retryDelayMs(error: unknown, retry: number, options: RetryOptions): number | undefined {
  if (error instanceof AssayNetworkError || error instanceof RequestTimeoutError) return backoffMs(retry, options);
  if (!(error instanceof AssayApiError) || !isRetryableStatus(error.status)) return undefined;
  if (error.retryAfterMs === undefined) return backoffMs(retry, options);
  return error.retryAfterMs <= options.maxRetryAfterMs ? error.retryAfterMs : undefined;
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Exponential with "equal jitter": never less than half the step, so retries cannot bunch up at zero. */
function backoffMs(retry: number, options: RetryOptions): number {
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return step / 2 + Math.random() * (step / 2);
}

import { ApplicationFailure } from '@temporalio/activity';
import type { ActivityTaskErrorCode } from '../../src/contract';
import { ProviderRejectedError, ProviderUnavailableError } from './provider';

/**
 * A provider's error as the activity fails with it: a rejection is final, an unavailable provider
 * is retried (after its Retry-After when it gave one, instead of the retry policy's backoff).
 */
export function providerFailure(error: unknown): unknown {
  if (error instanceof ProviderRejectedError) {
    return ApplicationFailure.nonRetryable(error.message, 'INPUT_REJECTED' satisfies ActivityTaskErrorCode);
  }
  if (error instanceof ProviderUnavailableError) {
    return ApplicationFailure.create({
      message: error.message,
      type: 'PROVIDER_UNAVAILABLE' satisfies ActivityTaskErrorCode,
      nextRetryDelay: error.retryAfterMs,
    });
  }
  return error;
}

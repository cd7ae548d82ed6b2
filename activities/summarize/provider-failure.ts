import { ApplicationFailure } from '@temporalio/activity';
import { CONTEXT_TOO_SMALL, type ActivityTaskErrorCode, type ContextTooSmallDetails } from '../../src/contract';
import { ProviderContextExceededError, ProviderRejectedError, ProviderUnavailableError } from './provider';

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

/**
 * A provider's error as a model call fails with it: as providerFailure, except a text longer than
 * the model's context window, which fails CONTEXT_TOO_SMALL (final too) with the window the
 * provider stated, so the task plans the rest in smaller steps.
 */
export function modelCallFailure(error: unknown): unknown {
  if (!(error instanceof ProviderContextExceededError)) return providerFailure(error);
  const details: ContextTooSmallDetails = error.contextTokens === undefined ? {} : { contextTokens: error.contextTokens };
  return ApplicationFailure.create({ message: error.message, type: CONTEXT_TOO_SMALL, nonRetryable: true, details: [details] });
}

import { ApplicationFailure } from '@temporalio/activity';
import { modelCallFailure, providerFailure } from '../../../../activities/summarize/provider-failure';
import { ProviderContextExceededError, ProviderRejectedError, ProviderUnavailableError } from '../../../../activities/summarize/provider';

function asFailure(value: unknown): ApplicationFailure {
  expect(value).toBeInstanceOf(ApplicationFailure);
  return value as ApplicationFailure;
}

describe('providerFailure', () => {
  it("makes an unavailable provider's Retry-After the next retry's delay, and keeps it retryable", () => {
    const failure = asFailure(providerFailure(new ProviderUnavailableError('summarisation provider answered HTTP 429', 7000)));
    expect(failure.type).toBe('PROVIDER_UNAVAILABLE');
    expect(failure.nextRetryDelay).toBe(7000);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toBe('summarisation provider answered HTTP 429');
  });

  it('leaves the retry policy its backoff when the provider gave no Retry-After', () => {
    const failure = asFailure(providerFailure(new ProviderUnavailableError('summarisation provider unreachable: fetch failed')));
    expect(failure.type).toBe('PROVIDER_UNAVAILABLE');
    expect(failure.nextRetryDelay).toBeUndefined();
    expect(failure.nonRetryable).toBe(false);
  });

  it('makes a rejection a final INPUT_REJECTED', () => {
    const failure = asFailure(providerFailure(new ProviderRejectedError('summarisation provider rejected the input (HTTP 400)')));
    expect(failure.type).toBe('INPUT_REJECTED');
    expect(failure.nonRetryable).toBe(true);
    expect(failure.nextRetryDelay).toBeUndefined();
    expect(failure.message).toBe('summarisation provider rejected the input (HTTP 400)');
  });

  it('passes any other error through unchanged', () => {
    const error = new TypeError('a bug');
    expect(providerFailure(error)).toBe(error);
    const failure = ApplicationFailure.nonRetryable('already a failure', 'OTHER');
    expect(providerFailure(failure)).toBe(failure);
  });
});

describe('modelCallFailure', () => {
  it('makes a text longer than the context a final CONTEXT_TOO_SMALL carrying the window the provider stated', () => {
    const failure = asFailure(modelCallFailure(new ProviderContextExceededError('rejected as longer than the context window (HTTP 400)', 2048)));
    expect(failure.type).toBe('CONTEXT_TOO_SMALL');
    expect(failure.nonRetryable).toBe(true);
    expect(failure.details).toEqual([{ contextTokens: 2048 }]);
    expect(failure.message).toBe('rejected as longer than the context window (HTTP 400)');
  });

  it('carries no window when the provider stated none', () => {
    expect(asFailure(modelCallFailure(new ProviderContextExceededError('too long'))).details).toEqual([{}]);
  });

  it('leaves every other error to providerFailure', () => {
    expect(asFailure(modelCallFailure(new ProviderRejectedError('rejected (HTTP 400)'))).type).toBe('INPUT_REJECTED');
    expect(asFailure(modelCallFailure(new ProviderUnavailableError('HTTP 503'))).type).toBe('PROVIDER_UNAVAILABLE');
  });
});

describe('providerFailure, for the summaries that cannot plan again', () => {
  it('makes a text longer than the context a final INPUT_REJECTED, as any refusal', () => {
    const failure = asFailure(providerFailure(new ProviderContextExceededError('too long', 2048)));
    expect(failure.type).toBe('INPUT_REJECTED');
    expect(failure.nonRetryable).toBe(true);
  });
});

import { ApplicationFailure } from '@temporalio/activity';
import { providerFailure } from '../../../../activities/summarize/provider-failure';
import { ProviderRejectedError, ProviderUnavailableError } from '../../../../activities/summarize/provider';

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

import { ServiceError } from '@temporalio/client';
import { isTemporalUnavailable } from '../../../../src/api/temporal/temporal-errors';

function serviceError(code: number): ServiceError {
  return new ServiceError('Failed to start Workflow', { cause: Object.assign(new Error(`${code}`), { code }) });
}

describe('Temporal unreachable, for the 503 mapping', () => {
  it.each([
    [1, 'CANCELLED (the server died under the call)'],
    [4, 'DEADLINE_EXCEEDED'],
    [14, 'UNAVAILABLE'],
  ])('counts gRPC %s — %s', (code) => {
    expect(isTemporalUnavailable(serviceError(code))).toBe(true);
  });

  it.each([3, 5, 6, 9, 13])('does not count gRPC %s, a real answer', (code) => {
    expect(isTemporalUnavailable(serviceError(code))).toBe(false);
  });

  it('does not count errors that are not from the Temporal service', () => {
    expect(isTemporalUnavailable(new Error('boom'))).toBe(false);
  });
});

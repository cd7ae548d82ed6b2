import { ServiceError } from '@temporalio/client';
import { isTemporalUnavailable } from '../../../../../src/api/platform/temporal/temporal-errors';

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

  it.each([4, 14])('counts the bare gRPC error %s that calls on the raw workflow service throw (lists, history reads)', (code) => {
    expect(isTemporalUnavailable(Object.assign(new Error(`${code}`), { code, details: 'No connection established', metadata: {} }))).toBe(true);
  });

  it('does not count a bare gRPC error that is a real answer', () => {
    expect(isTemporalUnavailable(Object.assign(new Error('3 INVALID_ARGUMENT'), { code: 3, details: 'invalid page token', metadata: {} }))).toBe(false);
  });

  it('does not count errors that are not from the Temporal service', () => {
    expect(isTemporalUnavailable(new Error('boom'))).toBe(false);
  });
});

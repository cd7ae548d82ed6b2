import { ActivityFailure, ApplicationFailure, CancelledFailure, TimeoutFailure } from '@temporalio/common';
import { taskErrorFrom } from '../../../workflows/task-error';

function activityFailure(cause: Error): ActivityFailure {
  return new ActivityFailure('activity failed', 'summarize', '1', 'MAXIMUM_ATTEMPTS_REACHED', undefined, cause);
}

describe('task error from an activity failure', () => {
  it('keeps the code of a deliberate activity failure', () => {
    const error = activityFailure(ApplicationFailure.nonRetryable('refused (HTTP 400)', 'INPUT_REJECTED'));
    expect(taskErrorFrom(error)).toEqual({ code: 'INPUT_REJECTED', message: 'refused (HTTP 400)' });
  });

  it('reports retries exhausted against an unavailable provider as PROVIDER_UNAVAILABLE', () => {
    const error = activityFailure(ApplicationFailure.retryable('HTTP 503', 'PROVIDER_UNAVAILABLE'));
    expect(taskErrorFrom(error)).toEqual({ code: 'PROVIDER_UNAVAILABLE', message: 'HTTP 503' });
  });

  it('reports a timeout as TIMED_OUT', () => {
    expect(taskErrorFrom(activityFailure(new TimeoutFailure('timed out', undefined, 'HEARTBEAT')))).toMatchObject({ code: 'TIMED_OUT' });
  });

  it('reports a cancellation as CANCELED', () => {
    expect(taskErrorFrom(new CancelledFailure('canceled'))).toMatchObject({ code: 'CANCELED' });
  });

  it('hides an unexpected error behind INTERNAL', () => {
    const error = activityFailure(ApplicationFailure.retryable('TypeError: x is undefined at foo.js:1', 'TypeError'));
    expect(taskErrorFrom(error)).toEqual({ code: 'INTERNAL', message: 'The task failed because of an internal error' });
  });
});

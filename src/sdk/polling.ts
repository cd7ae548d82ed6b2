import { delay } from './abortable-delay';
import { AssayNetworkError, PollTimeoutError, RequestTimeoutError } from './errors';
import type { PollOptions } from './options';
import type { Assessment, Batch, Task } from './resources';

export interface PollTarget<T extends Task | Assessment | Batch, Final extends T> {
  resourceId: string;
  /** One GET of the resource, given at most `timeoutMs` to answer. */
  fetch(timeoutMs: number, signal: AbortSignal | undefined): Promise<T>;
  isFinal(resource: T): resource is Final;
}

export interface PollRun<T> {
  schedule: PollOptions;
  requestTimeoutMs: number;
  signal?: AbortSignal;
  /** Called with the resource after every poll that got one. */
  onPoll?: (resource: T, poll: number) => void;
}

// A poll started just before the ceiling still gets this long to answer, so it is not doomed from the start.
const MIN_POLL_REQUEST_TIMEOUT_MS = 1_000;

/**
 * Polls on the schedule of docs/api.md, Polling, until the resource is final. A non-2xx answer
 * ends polling at once (same section); a poll that got no answer at all (network error, request
 * timeout) is not an answer, so the next scheduled poll asks again, within the same poll and time
 * ceilings.
 */
export async function pollUntilFinal<T extends Task | Assessment | Batch, Final extends T>(
  target: PollTarget<T, Final>,
  run: PollRun<T>,
): Promise<Final> {
  const { schedule } = run;
  const startedAt = Date.now();
  const deadline = startedAt + schedule.timeoutMs;
  let wait = schedule.firstPollDelayMs;
  let polls = 0;
  let lastSeen: T | undefined;
  let lastError: unknown;
  while (polls < schedule.maxPolls && Date.now() + wait <= deadline) {
    await delay(wait, run.signal);
    polls += 1;
    const timeoutMs = Math.min(run.requestTimeoutMs, Math.max(deadline - Date.now(), MIN_POLL_REQUEST_TIMEOUT_MS));
    try {
      lastSeen = await target.fetch(timeoutMs, run.signal);
      lastError = undefined;
    } catch (error) {
      if (!(error instanceof AssayNetworkError || error instanceof RequestTimeoutError)) throw error;
      lastError = error;
    }
    if (lastSeen !== undefined && lastError === undefined) {
      run.onPoll?.(lastSeen, polls);
      if (target.isFinal(lastSeen)) return lastSeen;
    }
    wait = jitteredInterval(schedule);
  }
  throw new PollTimeoutError(target.resourceId, polls, Date.now() - startedAt, lastSeen, lastError);
}

function jitteredInterval(schedule: PollOptions): number {
  return schedule.minIntervalMs + Math.random() * (schedule.maxIntervalMs - schedule.minIntervalMs);
}

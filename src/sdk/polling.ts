import { delay } from './abortable-delay';
import { AssayNetworkError, PollTimeoutError, RequestTimeoutError } from './errors';
import type { PollOptions } from './options';
import type { Assessment, Batch, Task } from './resources';

/** One poll's answer, whether the service held it (answered `Preference-Applied`), and how long it asked the client to leave before the next (Retry-After). */
export interface Polled<T> {
  resource: T;
  held: boolean;
  pollAfterMs?: number;
}

export interface PollTarget<T extends Task | Assessment | Batch, Final extends T> {
  resourceId: string;
  /** One GET of the resource, given at most `timeoutMs` to answer, asking the service to hold it up to `waitSeconds` for a change (0: not at all). */
  fetch(timeoutMs: number, signal: AbortSignal | undefined, waitSeconds: number): Promise<Polled<T>>;
  isFinal(resource: T): resource is Final;
}

export interface PollRun<T> {
  schedule: PollOptions;
  requestTimeoutMs: number;
  signal?: AbortSignal;
  /** Called with the resource after every poll that got one. */
  onPoll?: (resource: T, poll: number) => void;
  /** The Retry-After of the create that started the wait, when it had one: the first poll then waits for it as for a poll's. */
  firstPollAfterMs?: number;
}

// A poll started just before the ceiling still gets this long to answer, so it is not doomed from the start.
const MIN_POLL_REQUEST_TIMEOUT_MS = 1_000;

/**
 * Polls on the schedule of docs/api.md, Polling, until the resource is final. A non-2xx answer
 * ends polling at once (same section); a poll that got no answer at all (network error, request
 * timeout) is not an answer, so the next scheduled poll asks again, within the same poll and time
 * ceilings. Each poll may ask the service to hold its answer until the resource changes
 * (`waitSeconds`). After a held answer the next poll starts at once unless that would make two
 * polls within the schedule's interval; an answer that was not held (a service that does not hold,
 * or has no room to) is followed by the interval as always, or by its Retry-After when that is
 * longer (a busy service pacing its pollers), leaving room for one more poll before the ceiling;
 * the first poll waits out the create's Retry-After the same way.
 */
export async function pollUntilFinal<T extends Task | Assessment | Batch, Final extends T>(
  target: PollTarget<T, Final>,
  run: PollRun<T>,
): Promise<Final> {
  const { schedule } = run;
  const startedAt = Date.now();
  const deadline = startedAt + schedule.timeoutMs;
  let wait = pacedWait(schedule.firstPollDelayMs, run.firstPollAfterMs, schedule.timeoutMs);
  let polls = 0;
  let lastSeen: T | undefined;
  let lastError: unknown;
  while (polls < schedule.maxPolls && Date.now() + wait <= deadline) {
    await delay(wait, run.signal);
    polls += 1;
    const sentAt = Date.now();
    const waitSeconds = heldSeconds(schedule.waitSeconds, deadline - sentAt);
    const timeoutMs = Math.min(run.requestTimeoutMs + waitSeconds * 1000, Math.max(deadline - sentAt, MIN_POLL_REQUEST_TIMEOUT_MS));
    let held = false;
    let pollAfterMs: number | undefined;
    try {
      ({ resource: lastSeen, held, pollAfterMs } = await target.fetch(timeoutMs, run.signal, waitSeconds));
      lastError = undefined;
    } catch (error) {
      if (!(error instanceof AssayNetworkError || error instanceof RequestTimeoutError)) throw error;
      lastError = error;
    }
    if (lastSeen !== undefined && lastError === undefined) {
      run.onPoll?.(lastSeen, polls);
      if (target.isFinal(lastSeen)) return lastSeen;
    }
    wait = held ? Math.max(0, jitteredInterval(schedule) - (Date.now() - sentAt)) : jitteredInterval(schedule);
    wait = pacedWait(wait, pollAfterMs, deadline - Date.now());
  }
  throw new PollTimeoutError(target.resourceId, polls, Date.now() - startedAt, lastSeen, lastError);
}

/** The wait before the next poll when the service asked for `pollAfterMs` (Retry-After): the longer of the two, leaving room for one more poll before the ceiling. */
function pacedWait(wait: number, pollAfterMs: number | undefined, remainingMs: number): number {
  return pollAfterMs === undefined ? wait : Math.max(wait, Math.min(pollAfterMs, remainingMs - MIN_POLL_REQUEST_TIMEOUT_MS));
}

/** The wait to ask for: as configured, but ending a second before the time ceiling so the answer arrives within it. */
export function heldSeconds(configured: number, remainingMs: number): number {
  return Math.max(0, Math.min(configured, Math.floor(remainingMs / 1000) - 1));
}

function jitteredInterval(schedule: PollOptions): number {
  return schedule.minIntervalMs + Math.random() * (schedule.maxIntervalMs - schedule.minIntervalMs);
}

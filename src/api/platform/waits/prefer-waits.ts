import { Injectable } from '@nestjs/common';
import type { Caller } from '../keys/key-authenticator';
import { TemporalClients } from '../temporal/temporal-clients';
import { PollPacing } from './poll-pacing';
import { WaitPermits } from './wait-permits';
import { waitForStateChange, type WatchedState, type WorkflowStateWait } from './workflow-state-wait';

/**
 * What a request with `Prefer: wait` answers, the wait it honoured (for Preference-Applied) if it
 * did, and when it was not held, how long the client should leave before its next poll if longer
 * than usual (for Retry-After, PollPacing).
 */
export interface HeldAnswer<R> {
  resource: R;
  appliedSeconds?: number;
  pollAfterSeconds?: number;
}

/** A resource as read from the workflow run that holds it. */
export interface FoundInRun<R> {
  runId: string;
  resource: R;
}

/** The resource a request reads now, the key it is paced by (its workflow id), and when it is final. */
export interface WaitSubject<R> {
  current: R;
  key: string;
  isFinal(resource: R): boolean;
}

/**
 * `Prefer: wait=N` on a create or a GET (RFC 7240): the request is held for up to N seconds when
 * there is something to wait for and a permit is free (WaitPermits). Without a permit the API
 * answers at once and says nothing in Preference-Applied, as the RFC lets a server ignore a
 * preference: the client then polls as it would have, and nothing is refused. Such an answer, and
 * that of a request that asked for no wait, is paced while the resource is not final (PollPacing).
 */
@Injectable()
export class PreferWaits {
  constructor(
    private readonly permits: WaitPermits,
    private readonly pacing: PollPacing,
    private readonly temporal: TemporalClients,
  ) {}

  /**
   * A GET's wait: until the resource a workflow run holds changes state (waitForStateChange).
   * `find` reads it with its run, refusing what the caller may not see; it reads it again at each change.
   */
  async untilChanged<R>(caller: Caller, seconds: number | undefined, workflowId: string, find: () => Promise<FoundInRun<R>>, watched: WatchedState<R>): Promise<HeldAnswer<R>> {
    const { runId, resource: current } = await find();
    const wait: WorkflowStateWait<R> = { ...watched, environment: caller.environment, workflowId, runId, current, read: async () => (await find()).resource };
    return this.hold(caller, seconds, { current, key: workflowId, isFinal: watched.isFinal }, (waitSeconds) => waitForStateChange(this.temporal, wait, waitSeconds));
  }

  async hold<R>(caller: Caller, seconds: number | undefined, subject: WaitSubject<R>, wait: (seconds: number) => Promise<R>): Promise<HeldAnswer<R>> {
    const { current, key } = subject;
    if (subject.isFinal(current)) {
      this.pacing.forget(key);
      return { resource: current, appliedSeconds: seconds };
    }
    if (seconds === 0) return { resource: current, appliedSeconds: seconds };
    const release = seconds === undefined ? undefined : this.permits.tryAcquire(`${caller.environment}/${caller.organizationId}`);
    if (!release || seconds === undefined) return { resource: current, pollAfterSeconds: this.pacing.pollAfterSeconds(key) };
    try {
      const resource = await wait(seconds);
      if (subject.isFinal(resource)) this.pacing.forget(key);
      return { resource, appliedSeconds: seconds };
    } finally {
      release();
    }
  }
}

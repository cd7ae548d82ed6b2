import { Injectable } from '@nestjs/common';
import type { Caller } from '../keys/key-authenticator';
import { TemporalClients } from '../temporal/temporal-clients';
import { WaitPermits } from './wait-permits';
import { waitForStateChange, type WorkflowStateWait } from './workflow-state-wait';

/** What a request with `Prefer: wait` answers, and the wait it honoured (for Preference-Applied), if it did. */
export interface HeldAnswer<R> {
  resource: R;
  appliedSeconds?: number;
}

/**
 * `Prefer: wait=N` on a create or a GET (RFC 7240): the request is held for up to N seconds when
 * there is something to wait for and a permit is free (WaitPermits). Without a permit the API
 * answers at once and says nothing in Preference-Applied, as the RFC lets a server ignore a
 * preference: the client then polls as it would have, and nothing is refused.
 */
@Injectable()
export class PreferWaits {
  constructor(
    private readonly permits: WaitPermits,
    private readonly temporal: TemporalClients,
  ) {}

  /** A GET's wait: until the resource read from the caller's workflow run changes state (waitForStateChange). */
  untilChanged<R>(caller: Caller, seconds: number | undefined, wait: Omit<WorkflowStateWait<R>, 'environment'>): Promise<HeldAnswer<R>> {
    return this.hold(caller, seconds, wait.current, !wait.isFinal(wait.current), (waitSeconds) =>
      waitForStateChange(this.temporal, { ...wait, environment: caller.environment }, waitSeconds),
    );
  }

  async hold<R>(caller: Caller, seconds: number | undefined, current: R, waitable: boolean, wait: (seconds: number) => Promise<R>): Promise<HeldAnswer<R>> {
    if (seconds === undefined) return { resource: current };
    if (!waitable || seconds === 0) return { resource: current, appliedSeconds: seconds };
    const release = this.permits.tryAcquire(`${caller.environment}/${caller.organizationId}`);
    if (!release) return { resource: current };
    try {
      return { resource: await wait(seconds), appliedSeconds: seconds };
    } finally {
      release();
    }
  }
}

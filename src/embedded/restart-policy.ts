/** How `npm start`'s supervisor paces the restarts of one child, and when it stops trying. */
export interface RestartLimits {
  firstDelayMs: number;
  maxDelayMs: number;
  healthyRunMs: number;
  maxCrashes: number;
  crashWindowMs: number;
}

export const RESTART_LIMITS: Readonly<RestartLimits> = {
  // A one-off crash (a stray kill -9, the OOM killer) should cost half a second of downtime, no more.
  firstDelayMs: 500,
  // The delay doubles with each crash up to this: a child that keeps failing is not respawned in
  // a tight loop (each start of the worker or the dev server costs seconds of CPU), yet it comes
  // back within seconds of whatever broke it being fixed.
  maxDelayMs: 10_000,
  // A child that ran this long had recovered: its next crash is a new incident and is restarted
  // after the first delay again.
  healthyRunMs: 60_000,
  // This many crashes of one child within the window is a crash loop (a bad setting, a full disk, a
  // port another program took), not bad luck: restarting it further would only hide the failure
  // behind a service that half works, so the supervisor gives up and says why.
  maxCrashes: 5,
  crashWindowMs: 60_000,
};

export type RestartDecision = { restart: true; delayMs: number } | { restart: false; crashesInWindow: number };

/** The restart policy of one child: exponential backoff, and giving up on a crash loop. No clock, no timers: the caller says when. */
export class RestartPolicy {
  private recentCrashes: number[] = [];
  private consecutiveCrashes = 0;

  constructor(private readonly limits: Readonly<RestartLimits> = RESTART_LIMITS) {}

  /** What to do about a crash at `crashedAt` (ms since the epoch) of a child that had been running for `ranForMs`. */
  afterCrash(crashedAt: number, ranForMs: number): RestartDecision {
    const { firstDelayMs, maxDelayMs, healthyRunMs, maxCrashes, crashWindowMs } = this.limits;
    this.recentCrashes = [...this.recentCrashes.filter((time) => crashedAt - time < crashWindowMs), crashedAt];
    if (this.recentCrashes.length >= maxCrashes) return { restart: false, crashesInWindow: this.recentCrashes.length };
    this.consecutiveCrashes = ranForMs >= healthyRunMs ? 1 : this.consecutiveCrashes + 1;
    return { restart: true, delayMs: Math.min(maxDelayMs, firstDelayMs * 2 ** (this.consecutiveCrashes - 1)) };
  }
}

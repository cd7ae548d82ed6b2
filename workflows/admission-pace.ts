// How fast a batch's items may become tasks: a workflow-only helper of the batch workflow (it reads
// the workflow's clock, so it is deterministic on replay).

import type { BatchAdmissionPace } from '../src/contract';

/** A token bucket: `burst` items at once, then `perMinute` a minute. */
export class AdmissionPace {
  private tokens: number;
  private at: number;
  /** When items were last taken (or the bucket was made): the tokens taken next accrued since then. */
  private lastTakenAt: number;

  constructor(
    private readonly pace: BatchAdmissionPace,
    now: number,
  ) {
    this.tokens = pace.burst;
    this.at = now;
    this.lastTakenAt = now;
  }

  /** Since when the items the next `take` gives accrued. */
  get accruingSince(): number {
    return this.lastTakenAt;
  }

  /** How many items may be admitted now, at most `wanted`; they are taken from the bucket. */
  take(wanted: number, now: number): number {
    this.tokens = Math.min(this.pace.burst, this.tokens + ((now - this.at) * this.pace.perMinute) / 60_000);
    this.at = now;
    const taken = Math.min(wanted, Math.floor(this.tokens));
    this.tokens -= taken;
    if (taken > 0) this.lastTakenAt = now;
    return taken;
  }
}

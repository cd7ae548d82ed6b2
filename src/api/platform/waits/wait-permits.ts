import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../common/config/app-config';

/**
 * Permits to hold a request open for `Prefer: wait`, counted in this instance: at most
 * PREFER_WAIT_MAX_PER_INSTANCE at once, and PREFER_WAIT_MAX_PER_ORGANISATION for one organisation
 * in one environment. Each held request is one Temporal long poll, and the frontend bounds those per
 * namespace for everyone, the workers' task polls included: waits beyond the bound are not held.
 */
@Injectable()
export class WaitPermits {
  private held = 0;
  private readonly heldBy = new Map<string, number>();
  private readonly perInstance: number;
  private readonly perOrganisation: number;

  constructor(config: AppConfig) {
    this.perInstance = config.values.PREFER_WAIT_MAX_PER_INSTANCE;
    this.perOrganisation = config.values.PREFER_WAIT_MAX_PER_ORGANISATION;
  }

  /** A permit for `holder` (an organisation and environment), or undefined when none is free; the release is idempotent. */
  tryAcquire(holder: string): (() => void) | undefined {
    const byHolder = this.heldBy.get(holder) ?? 0;
    if (this.held >= this.perInstance || byHolder >= this.perOrganisation) return undefined;
    this.held++;
    this.heldBy.set(holder, byHolder + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held--;
      const remaining = (this.heldBy.get(holder) ?? 1) - 1;
      if (remaining === 0) this.heldBy.delete(holder);
      else this.heldBy.set(holder, remaining);
    };
  }
}

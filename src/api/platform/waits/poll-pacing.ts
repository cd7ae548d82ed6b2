import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../common/config/app-config';

/** The longest a client is asked to wait before its next poll. */
export const MAX_POLL_AFTER_SECONDS = 30;
// A client polls every 1–2 s by the polling guidance: no hint is needed until the budget asks for more.
const USUAL_INTERVAL_SECONDS = 2;
// A poller is counted while it polled within this window; it must outlast the longest hint, or the
// clients told to wait it out would drop from the count and be told to come back sooner.
const POLLER_WINDOW_MS = (MAX_POLL_AFTER_SECONDS + 10) * 1000;
const SWEEP_EVERY_MS = 1000;

/**
 * Paces the polls this instance answers without holding them (`Prefer: wait` not asked, or no
 * permit free) while their resource is not final. Past capacity a backlog's every task is polled
 * every 1–2 s, and those polls take CPU the backlog needs to drain (measured at twice capacity: 18
 * requests per task; paced, 5). So the instance counts the resources polled lately, and once they
 * are more than UNHELD_POLLS_PER_SECOND spread over the usual interval allows, it asks each client
 * to wait its share (a Retry-After on the answer, as status monitors of long-running operations do),
 * so that the polls stay within the budget however long the backlog.
 */
@Injectable()
export class PollPacing {
  private readonly lastPolled = new Map<string, number>();
  private readonly budgetPerSecond: number;
  private sweptAt = 0;

  constructor(config: AppConfig) {
    this.budgetPerSecond = config.values.UNHELD_POLLS_PER_SECOND;
  }

  /** Records a poll of `resource` answered unheld and not final; the seconds its client should wait before the next, when more than usual. */
  pollAfterSeconds(resource: string): number | undefined {
    const now = Date.now();
    this.lastPolled.set(resource, now);
    this.sweep(now);
    const seconds = Math.ceil(this.lastPolled.size / this.budgetPerSecond);
    return seconds > USUAL_INTERVAL_SECONDS ? Math.min(seconds, MAX_POLL_AFTER_SECONDS) : undefined;
  }

  /** A resource seen final is polled no more. */
  forget(resource: string): void {
    this.lastPolled.delete(resource);
  }

  private sweep(now: number): void {
    if (now - this.sweptAt < SWEEP_EVERY_MS) return;
    this.sweptAt = now;
    for (const [resource, polledAt] of this.lastPolled) {
      if (now - polledAt > POLLER_WINDOW_MS) this.lastPolled.delete(resource);
    }
  }
}

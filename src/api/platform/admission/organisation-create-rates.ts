import { Injectable } from '@nestjs/common';

const WINDOW_MS = 10_000;

/**
 * The creates each organisation (in an environment) sent this instance over the last 10 s, in
 * one-second buckets: what admission compares an organisation with the others by.
 */
@Injectable()
export class OrganisationCreateRates {
  private readonly buckets = new Map<string, Map<number, number>>();
  private sweptAt = 0;

  /** Counts a create of `holder` (an environment and organisation), admitted or not. */
  record(holder: string): void {
    const second = Math.floor(Date.now() / 1000);
    const counts = this.buckets.get(holder) ?? new Map<number, number>();
    counts.set(second, (counts.get(second) ?? 0) + 1);
    this.buckets.set(holder, counts);
    // Organisations that stopped creating would otherwise stay here for good.
    if (second - this.sweptAt >= WINDOW_MS / 1000) {
      this.sweptAt = second;
      this.totals();
    }
  }

  /** Whether `holder` sent at least the mean of the organisations that sent any lately: one of the busiest. */
  isAmongBusiest(holder: string): boolean {
    const totals = this.totals();
    const own = totals.get(holder) ?? 0;
    const mean = [...totals.values()].reduce((sum, count) => sum + count, 0) / Math.max(1, totals.size);
    return own > 0 && own >= mean;
  }

  private totals(): Map<string, number> {
    const oldest = Math.floor((Date.now() - WINDOW_MS) / 1000);
    const totals = new Map<string, number>();
    for (const [holder, counts] of this.buckets) {
      for (const second of counts.keys()) if (second <= oldest) counts.delete(second);
      if (counts.size === 0) this.buckets.delete(holder);
      else totals.set(holder, [...counts.values()].reduce((sum, count) => sum + count, 0));
    }
    return totals;
  }
}

/**
 * Wall-clock milliseconds with sub-millisecond resolution, comparable with the close times the
 * Temporal server (on this machine) reports, unlike Date.now()'s whole milliseconds.
 */
export function wallClockMs(): number {
  return performance.timeOrigin + performance.now();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

import { sleep } from './clock';

export interface OpenLoopRun {
  /** How late arrivals were fired against their schedule (ms); large values mean the generator fell behind. */
  lateMs: number[];
}

/**
 * Fires `arrive(i)` at exact intervals for `durationMs` (or until `stopWhen` holds, if sooner),
 * never waiting for earlier arrivals to finish (open loop), so a slow system meets the same
 * arrival rate a real one would.
 */
export async function runOpenLoop(ratePerSecond: number, durationMs: number, arrive: (index: number) => void, stopWhen?: () => boolean): Promise<OpenLoopRun> {
  const intervalMs = 1000 / ratePerSecond;
  const count = Math.round((durationMs / 1000) * ratePerSecond);
  const startedAt = performance.now();
  const lateMs: number[] = [];
  for (let index = 0; index < count && !stopWhen?.(); index++) {
    const due = startedAt + index * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    lateMs.push(performance.now() - due);
    arrive(index);
  }
  return { lateMs };
}

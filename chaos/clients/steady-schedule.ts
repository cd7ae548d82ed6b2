import { sleep } from './concurrency';

/**
 * Starts `work` every `everyMs` until `until` (or the signal), without waiting for one to finish
 * before the next starts: a steady arrival rate, as independent clients make. Resolves when the
 * last one started has finished; their failures are theirs to record.
 */
export async function startEvery(everyMs: number, until: number, signal: AbortSignal, work: () => Promise<void>): Promise<void> {
  const running = new Set<Promise<void>>();
  for (let next = Date.now(); next < until && !signal.aborted; next += everyMs) {
    await sleep(Math.max(0, next - Date.now()));
    if (signal.aborted) break;
    const started = work().catch(() => undefined);
    running.add(started);
    void started.finally(() => running.delete(started));
  }
  await Promise.all(running);
}

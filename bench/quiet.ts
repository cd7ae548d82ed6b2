import type { BenchStack } from './bench-stack';
import { sleep } from './clock';
import { readCpuSeconds } from './usage-meter';

const SAMPLE_MS = 500;
const QUIET_CORES = 0.15;

/**
 * Waits until the stack is idle again (all its processes together below 0.15 cores), so work left
 * over from one scenario (a backlog, timers firing) does not count against the next. Returns how
 * long it waited; gives up after maxMs. Without processes to watch, it only pauses briefly.
 */
export async function waitUntilQuiet(stack: BenchStack, maxMs = 60_000): Promise<number> {
  const startedAt = performance.now();
  if (stack.processes.length === 0) {
    await sleep(2_000);
    return performance.now() - startedAt;
  }
  const total = () => stack.processes.reduce((sum, measured) => sum + readCpuSeconds(measured), 0);
  let quietSamples = 0;
  let before = total();
  while (performance.now() - startedAt < maxMs && quietSamples < 2) {
    await sleep(SAMPLE_MS);
    const now = total();
    quietSamples = (now - before) / (SAMPLE_MS / 1000) < QUIET_CORES ? quietSamples + 1 : 0;
    before = now;
  }
  return performance.now() - startedAt;
}

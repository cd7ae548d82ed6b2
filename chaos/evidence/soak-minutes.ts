import type { SoakMinute } from '../report/soak-measures';
import type { ProcessSample } from '../stack/process-sample';

/**
 * Puts each sample and each task's final moment into the minute of the run it fell in (minute m
 * spans (m-1, m] minutes after `startedAt`); a minute keeps the last sample of each process.
 * Anything before the start or after the last minute is left out.
 */
export function soakMinutes(startedAt: number, minutes: number, intervalMs: number, samples: readonly ProcessSample[], finalAt: readonly number[]): SoakMinute[] {
  const minuteOf = (at: number) => Math.ceil((at - startedAt) / intervalMs);
  const rows = Array.from({ length: minutes }, (_, index) => ({ minute: index + 1, tasksFinal: 0, samples: new Map<string, ProcessSample>() }));
  const rowAt = (at: number) => {
    const minute = minuteOf(at);
    return minute >= 1 && minute <= minutes ? rows[minute - 1] : undefined;
  };
  for (const sample of [...samples].sort((a, b) => a.at - b.at)) rowAt(sample.at)?.samples.set(sample.process, sample);
  for (const at of finalAt) {
    const row = rowAt(at);
    if (row) row.tasksFinal++;
  }
  return rows;
}

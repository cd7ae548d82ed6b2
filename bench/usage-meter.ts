import type { MeasuredProcess } from './bench-stack';
import { readProcessUsage, resetPeakRss } from './process-usage';

export interface ProcessCost {
  name: MeasuredProcess['name'];
  cpuSeconds: number;
  peakRssBytes: number;
}

/** CPU time spent and peak RSS reached by each process of the stack between start() and stop(). */
export class UsageMeter {
  private readonly before = new Map<number, number>();

  constructor(private readonly processes: MeasuredProcess[]) {}

  start(): void {
    for (const { pid } of this.processes) {
      resetPeakRss(pid);
      this.before.set(pid, readProcessUsage(pid).cpuSeconds);
    }
  }

  stop(): ProcessCost[] {
    return this.processes.map(({ name, pid }) => {
      const usage = readProcessUsage(pid);
      return { name, cpuSeconds: usage.cpuSeconds - (this.before.get(pid) ?? 0), peakRssBytes: usage.peakRssBytes };
    });
  }
}

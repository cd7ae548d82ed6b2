import type { MeasuredProcess } from './bench-stack';
import { readPeakRssBytes, readProcessCpuSeconds, readProcessTreeCpuSeconds, readProcessTreePssBytes, resetPeakRss } from './process-usage';

export interface ProcessCost {
  name: MeasuredProcess['name'];
  cpuSeconds: number;
  /** Peak RSS; for a process tree, the peak of its summed PSS as sampled. */
  peakRssBytes: number;
}

// A process tree has no peak counter of its own: its memory is sampled this often.
const TREE_SAMPLE_MS = 1_000;

/** A measured process's CPU time so far: of its whole process tree when it forks workers of its own. */
export function readCpuSeconds(process: MeasuredProcess): number {
  return process.tree ? readProcessTreeCpuSeconds(process.pid) : readProcessCpuSeconds(process.pid);
}

/** CPU time spent and peak RSS reached by each process of the stack between start() and stop(). */
export class UsageMeter {
  private readonly before = new Map<number, number>();
  private readonly treePeaks = new Map<number, number>();
  private sampler?: NodeJS.Timeout;

  constructor(private readonly processes: MeasuredProcess[]) {}

  start(): void {
    for (const measured of this.processes) {
      if (!measured.tree) resetPeakRss(measured.pid);
      this.before.set(measured.pid, readCpuSeconds(measured));
    }
    this.treePeaks.clear();
    this.sampleTrees();
    if (this.processes.some((measured) => measured.tree)) {
      this.sampler = setInterval(() => this.sampleTrees(), TREE_SAMPLE_MS);
      this.sampler.unref();
    }
  }

  stop(): ProcessCost[] {
    clearInterval(this.sampler);
    this.sampleTrees();
    return this.processes.map((measured) => ({
      name: measured.name,
      cpuSeconds: readCpuSeconds(measured) - (this.before.get(measured.pid) ?? 0),
      peakRssBytes: measured.tree ? (this.treePeaks.get(measured.pid) ?? Number.NaN) : readPeakRssBytes(measured.pid),
    }));
  }

  private sampleTrees(): void {
    for (const { pid, tree } of this.processes) {
      if (tree) this.treePeaks.set(pid, Math.max(this.treePeaks.get(pid) ?? 0, readProcessTreePssBytes(pid)));
    }
  }
}

import { median, spread, type Spread } from '../stats';
import type { EngineMode, EngineRun } from './engine-run';

/** One mode over its runs. */
export interface EngineModeSummary {
  mode: EngineMode;
  runs: number;
  completionsPerSecond: Spread;
  /** Every measured process of the mode's path together. */
  cpuSecondsPerThousand: Spread;
  /** Each process's CPU-s per 1,000 tasks, the median over the runs. */
  medianCpuSecondsPerThousand: Record<string, number>;
  /** The whole machine's busy CPU-s per 1,000 tasks, and the share no measured process accounts for (medians; NaN unmeasured). */
  medianMachineCpuSecondsPerThousand: number;
  medianUnattributedCpuSecondsPerThousand: number;
  /** Assay only. */
  medianPollsPerTask?: number;
  /** Over all runs. */
  failures: number;
}

/** Assay's median over the raw engine's: below 1× completions/s is slower, above 1× CPU costs more. */
export interface EngineRatio {
  completionsPerSecond: number;
  cpuSecondsPerThousand: number;
  /** The whole machine's CPU per task, which also holds what no measured process accounts for. */
  machineCpuSecondsPerThousand: number;
}

export interface EngineGapSummary {
  modes: EngineModeSummary[];
  assayOverRaw: { asShipped: EngineRatio; likeForLike: EngineRatio };
}

/** Min / median / max per mode, and how Assay's medians compare with each raw engine's. */
export function summariseEngineGap(runs: EngineRun[]): EngineGapSummary {
  const summaryOf = (mode: EngineMode) => summariseMode(mode, runs.filter((run) => run.mode === mode));
  const [assay, raw, likeForLike] = [summaryOf('assay'), summaryOf('raw'), summaryOf('raw-like-for-like')];
  return { modes: [assay, raw, likeForLike], assayOverRaw: { asShipped: assayOver(assay, raw), likeForLike: assayOver(assay, likeForLike) } };
}

function summariseMode(mode: EngineMode, runs: EngineRun[]): EngineModeSummary {
  const names = [...new Set(runs.flatMap((run) => run.costs.map((cost) => cost.name)))];
  const perThousand = (run: EngineRun, name: string) => ((run.costs.find((cost) => cost.name === name)?.cpuSeconds ?? Number.NaN) / run.tasks) * 1000;
  const machinePerThousand = (run: EngineRun, seconds: (machine: NonNullable<EngineRun['machine']>) => number) => (run.machine ? (seconds(run.machine) / run.tasks) * 1000 : Number.NaN);
  return {
    mode,
    runs: runs.length,
    completionsPerSecond: spread(runs.map((run) => run.completionsPerSecond)),
    cpuSecondsPerThousand: spread(runs.map((run) => run.cpuSecondsPerThousand)),
    medianCpuSecondsPerThousand: Object.fromEntries(names.map((name) => [name, median(runs.map((run) => perThousand(run, name)))])),
    medianMachineCpuSecondsPerThousand: median(runs.map((run) => machinePerThousand(run, (machine) => machine.busySeconds))),
    medianUnattributedCpuSecondsPerThousand: median(runs.map((run) => machinePerThousand(run, (machine) => machine.unattributedSeconds))),
    medianPollsPerTask: mode === 'assay' ? median(runs.map((run) => run.pollsPerTask ?? Number.NaN)) : undefined,
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
  };
}

function assayOver(assay: EngineModeSummary, raw: EngineModeSummary): EngineRatio {
  return {
    completionsPerSecond: assay.completionsPerSecond.p50 / raw.completionsPerSecond.p50,
    cpuSecondsPerThousand: assay.cpuSecondsPerThousand.p50 / raw.cpuSecondsPerThousand.p50,
    machineCpuSecondsPerThousand: assay.medianMachineCpuSecondsPerThousand / raw.medianMachineCpuSecondsPerThousand,
  };
}

import type { ProcessSample } from '../stack/process-sample';
import { growthVerdict, type GrowthAllowance, type GrowthVerdict } from './growth';

const MIB = 1024 * 1024;

/** One minute of a soak run: how many tasks became final in it, and the last sample of each process. */
export interface SoakMinute {
  minute: number;
  tasksFinal: number;
  samples: ReadonlyMap<string, ProcessSample>;
}

/** One figure of one process, followed minute by minute. */
export interface SoakMeasure {
  process: string;
  label: string;
  unit: string;
  /** Figures with a unit are shown with one decimal, counts without. */
  decimals: number;
  read(sample: ProcessSample): number | undefined;
  allowance: GrowthAllowance;
}

type MeasureKind = Omit<SoakMeasure, 'process'>;

// The allowances' absolute floors are the noise seen between minutes of a steady load: a pool's
// connections opening and closing, a garbage collection just before or after the sample.
const KINDS: readonly MeasureKind[] = [
  { label: 'RSS', unit: 'MiB', decimals: 1, read: (sample) => sample.rssBytes / MIB, allowance: { relative: 0.1, absolute: 16 } },
  { label: 'heap', unit: 'MiB', decimals: 1, read: (sample) => (sample.heapUsedBytes === undefined ? undefined : sample.heapUsedBytes / MIB), allowance: { relative: 0.1, absolute: 8 } },
  { label: 'fds', unit: '', decimals: 0, read: (sample) => sample.openFds, allowance: { relative: 0.1, absolute: 8 } },
  { label: 'ELD p99', unit: 'ms', decimals: 1, read: (sample) => sample.eventLoopDelayP99Ms, allowance: { relative: 0.1, absolute: 20 } },
];

/** Every figure some sample of the process has (a Go server has no heap or event loop to report). */
export function soakMeasures(processes: readonly string[], minutes: readonly SoakMinute[]): SoakMeasure[] {
  return processes.flatMap((process) =>
    KINDS.filter((kind) => minutes.some((minute) => {
      const sample = minute.samples.get(process);
      return sample !== undefined && kind.read(sample) !== undefined;
    })).map((kind) => ({ ...kind, process })),
  );
}

/** The figure minute by minute; a minute without a sample of the process is left out. */
export function seriesOf(measure: SoakMeasure, minutes: readonly SoakMinute[]): number[] {
  return minutes.flatMap((minute) => {
    const sample = minute.samples.get(measure.process);
    const value = sample === undefined ? undefined : measure.read(sample);
    return value === undefined ? [] : [value];
  });
}

export interface MeasureVerdict {
  measure: SoakMeasure;
  /** Undefined when the run had fewer than four minutes with a sample. */
  verdict?: GrowthVerdict;
}

export function judgeMeasures(measures: readonly SoakMeasure[], minutes: readonly SoakMinute[]): MeasureVerdict[] {
  return measures.map((measure) => ({ measure, verdict: growthVerdict(seriesOf(measure, minutes), measure.allowance) }));
}

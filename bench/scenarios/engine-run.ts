import type { FailureCauses } from '../failure-causes';
import type { MachineCost } from '../machine-cpu';
import type { ProcessCost } from '../usage-meter';

/**
 * Assay as shipped, the raw engine as shipped (the SDK's default worker slots, no payload codec),
 * and the raw engine like for like (Assay's worker slots and payload codec, its workflow module preloaded).
 */
export const ENGINE_MODES = ['assay', 'raw', 'raw-like-for-like'] as const;
export type EngineMode = (typeof ENGINE_MODES)[number];

export interface EngineRun {
  mode: EngineMode;
  /** 1 to `runs`. */
  round: number;
  tasks: number;
  /** From the first create to the last task seen final (to the last create answered, creates alone). */
  elapsedMs: number;
  /** `tasks` (failures included, as the throughput scenario counts them) over elapsedMs: creates/s, creates alone. */
  completionsPerSecond: number;
  /** Every measured process of the mode's path together; NaN when none was measured. */
  cpuSecondsPerThousand: number;
  /** Tasks that did not end succeeded, or whose create failed. */
  failures: number;
  failureCauses: FailureCauses;
  /** GETs the SDK sent per task until it saw it final; Assay only (the raw client's result() is one long poll). */
  pollsPerTask?: number;
  costs: ProcessCost[];
  /** The whole machine over the run, beside `costs`; absent when no process was measured. */
  machine?: MachineCost;
}

import { Client, Connection, type WorkflowClient } from '@temporalio/client';
import type { AssayClient } from '../../src/sdk';
import { benchClients } from '../bench-client';
import { ASSAY_ROLES, processesOf, rawEngineRoles, type BenchStack, type ProcessRole } from '../bench-stack';
import { runClosedLoop } from '../closed-loop';
import { waitUntilQuiet } from '../quiet';
import { BENCH_TASK_INPUT } from '../task-input';
import { UsageMeter, type ProcessCost } from '../usage-meter';
import { summariseEngineGap, type EngineGapSummary } from './engine-gap-summary';
import { startRawTask } from './raw-engine';

/**
 * Assay as shipped, the raw engine as shipped (the SDK's default worker slots, no payload codec),
 * and the raw engine like for like (Assay's worker slots and payload codec, its workflow module preloaded).
 */
export const ENGINE_MODES = ['assay', 'raw', 'raw-like-for-like'] as const;
export type EngineMode = (typeof ENGINE_MODES)[number];

export interface EngineGapSettings {
  tasks: number;
  /** Tasks in flight: as many loops, each creating a task and waiting until it is final before it creates the next. */
  concurrency: number;
  /** Runs of each mode, interleaved (Assay, raw, raw like for like, Assay, …). */
  runs: number;
  /** Tasks of each mode's warm-up, discarded. */
  warmupTasks: number;
}

export interface EngineRun {
  mode: EngineMode;
  /** 1 to `runs`. */
  round: number;
  tasks: number;
  /** From the first create to the last task seen final. */
  elapsedMs: number;
  /** `tasks` (failures included, as the throughput scenario counts them) over elapsedMs. */
  completionsPerSecond: number;
  /** Every measured process of the mode's path together; NaN when none was measured. */
  cpuSecondsPerThousand: number;
  /** Tasks that did not end succeeded, or whose create failed. */
  failures: number;
  /** GETs the SDK sent per task until it saw it final; Assay only (the raw client's result() is one long poll). */
  pollsPerTask?: number;
  costs: ProcessCost[];
}

export interface EngineGapFigures extends EngineGapSummary {
  settings: EngineGapSettings;
  runs: EngineRun[];
}

/** One task of a mode, from its create to its end; rejects when it did not succeed. */
type RunTask = (countPoll: () => void) => Promise<void>;

interface EnginePath {
  /** The processes the mode's tasks go through, whose CPU counts against it. */
  roles: ProcessRole[];
  runTask: RunTask;
}

/**
 * The like-for-like comparison: the three modes on the same stack, each as N tasks with at
 * most `concurrency` in flight (a task's loop waits until it is final before the next create, so
 * neither path can run ahead of its completions), after a warm-up of each. Runs are interleaved so
 * drift in the machine's load spreads over all three; each starts on an idle stack.
 */
export async function runEngineGapScenario(stack: BenchStack, settings: EngineGapSettings, onRun: (run: EngineRun) => void): Promise<EngineGapFigures> {
  const likeForLike = stack.rawLikeForLike;
  if (!likeForLike) throw new Error('the engine-gap scenario needs a stack started with the raw engine like for like');
  const connection = await Connection.connect(stack.connection);
  try {
    const paths: Record<EngineMode, EnginePath> = {
      assay: { roles: ASSAY_ROLES, runTask: assayTask(benchClients(stack)) },
      raw: { roles: rawEngineRoles(), runTask: rawTask(new Client({ connection, namespace: stack.namespace }).workflow, stack.rawTaskQueue) },
      'raw-like-for-like': {
        roles: rawEngineRoles('raw-worker-like-for-like'),
        runTask: rawTask(new Client({ connection, namespace: stack.namespace, dataConverter: likeForLike.workerOptions.dataConverter }).workflow, likeForLike.taskQueue),
      },
    };
    // JIT, connections, the server's caches and each worker's sticky cache.
    for (const mode of ENGINE_MODES) await runMode(stack, mode, paths[mode], 0, settings.warmupTasks, settings.concurrency);
    const runs: EngineRun[] = [];
    for (let round = 1; round <= settings.runs; round += 1) {
      for (const mode of ENGINE_MODES) {
        await waitUntilQuiet(stack);
        const run = await runMode(stack, mode, paths[mode], round, settings.tasks, settings.concurrency);
        runs.push(run);
        onRun(run);
      }
    }
    return { settings, runs, ...summariseEngineGap(runs) };
  } finally {
    await connection.close();
  }
}

/** Through the HTTP API with the SDK as a customer runs it: summarize, whose create is held until the task is final (then polled, each poll held, if it is not). */
function assayTask(nextClient: () => AssayClient): RunTask {
  return async (countPoll) => {
    await nextClient().summarize(BENCH_TASK_INPUT.text, { onPoll: countPoll });
  };
}

/** Straight to the engine: the Temporal client's start, then result(), a long poll. */
function rawTask(workflows: WorkflowClient, taskQueue: string): RunTask {
  return async () => {
    const handle = await startRawTask(workflows, taskQueue);
    await handle.result();
  };
}

async function runMode(stack: BenchStack, mode: EngineMode, path: EnginePath, round: number, tasks: number, concurrency: number): Promise<EngineRun> {
  const meter = new UsageMeter(processesOf(stack, path.roles));
  let failures = 0;
  let polls = 0;
  const countPoll = () => {
    polls += 1;
  };
  meter.start();
  const startedAt = performance.now();
  await runClosedLoop(tasks, concurrency, async () => {
    try {
      await path.runTask(countPoll);
    } catch {
      failures += 1;
    }
  });
  const elapsedMs = performance.now() - startedAt;
  const costs = meter.stop();
  return {
    mode,
    round,
    tasks,
    elapsedMs,
    completionsPerSecond: tasks / (elapsedMs / 1000),
    cpuSecondsPerThousand: costs.length === 0 ? Number.NaN : (costs.reduce((sum, cost) => sum + cost.cpuSeconds, 0) / tasks) * 1000,
    failures,
    pollsPerTask: mode === 'assay' ? polls / tasks : undefined,
    costs,
  };
}

import { Client, Connection, type WorkflowClient } from '@temporalio/client';
import type { AssayClient } from '../../src/sdk';
import { benchClients } from '../bench-client';
import { ASSAY_ROLES, processesOf, rawEngineRoles, type BenchStack, type ProcessRole } from '../bench-stack';
import { runClosedLoop } from '../closed-loop';
import { countFailure, failureCause, type FailureCauses } from '../failure-causes';
import { MachineMeter } from '../machine-cpu';
import { waitUntilQuiet } from '../quiet';
import { BENCH_TASK_INPUT } from '../task-input';
import { UsageMeter } from '../usage-meter';
import { summariseEngineGap, type EngineGapSummary } from './engine-gap-summary';
import { ENGINE_MODES, type EngineMode, type EngineRun } from './engine-run';
import { startRawTask } from './raw-engine';

export interface EngineGapSettings {
  tasks: number;
  /** Tasks in flight: as many loops, each creating a task and waiting until it is final before it creates the next. */
  concurrency: number;
  /** Runs of each mode, interleaved (Assay, raw, raw like for like, Assay, …). */
  runs: number;
  /** Tasks of each mode's warm-up, discarded. */
  warmupTasks: number;
  /**
   * Creates alone: every worker of the stack stopped while a run creates its tasks (the SDK's
   * createTask, the raw client's start), so it measures the create path and nothing the creates
   * start; the workers then drain the backlog before the next run.
   */
  createsOnly: boolean;
}


export interface EngineGapFigures extends EngineGapSummary {
  settings: EngineGapSettings;
  runs: EngineRun[];
}

// A run's creates leave that many tasks queued; the workers, resumed, drain them before the next run.
const BACKLOG_DRAIN_MS = 300_000;

/** One task of a mode, from its create to its end (its create alone, creates alone); rejects when it did not succeed. */
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
    const { createsOnly } = settings;
    const paths: Record<EngineMode, EnginePath> = {
      assay: { roles: ASSAY_ROLES, runTask: createsOnly ? assayCreate(benchClients(stack)) : assayTask(benchClients(stack)) },
      raw: { roles: rawEngineRoles(), runTask: rawTask(new Client({ connection, namespace: stack.namespace }).workflow, stack.rawTaskQueue, createsOnly) },
      'raw-like-for-like': {
        roles: rawEngineRoles('raw-worker-like-for-like'),
        runTask: rawTask(new Client({ connection, namespace: stack.namespace, dataConverter: likeForLike.workerOptions.dataConverter }).workflow, likeForLike.taskQueue, createsOnly),
      },
    };
    const measure = async (mode: EngineMode, round: number, tasks: number) => {
      if (!createsOnly) return runMode(stack, mode, paths[mode], round, tasks, settings.concurrency);
      signalWorkers(stack, 'SIGSTOP');
      try {
        return await runMode(stack, mode, paths[mode], round, tasks, settings.concurrency);
      } finally {
        signalWorkers(stack, 'SIGCONT');
        await waitUntilQuiet(stack, BACKLOG_DRAIN_MS);
      }
    };
    // JIT, connections, the server's caches and each worker's sticky cache.
    for (const mode of ENGINE_MODES) await measure(mode, 0, settings.warmupTasks);
    const runs: EngineRun[] = [];
    for (let round = 1; round <= settings.runs; round += 1) {
      for (const mode of ENGINE_MODES) {
        await waitUntilQuiet(stack);
        const run = await measure(mode, round, settings.tasks);
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

/** Creates alone: the SDK's createTask, not held. */
function assayCreate(nextClient: () => AssayClient): RunTask {
  return async () => {
    await nextClient().createTask({ task_type: 'summarize', input: BENCH_TASK_INPUT });
  };
}

/** Straight to the engine: the Temporal client's start, then result(), a long poll (only the start, creates alone). */
function rawTask(workflows: WorkflowClient, taskQueue: string, createsOnly: boolean): RunTask {
  return async () => {
    const handle = await startRawTask(workflows, taskQueue);
    if (!createsOnly) await handle.result();
  };
}

/** Stops (SIGSTOP) or resumes (SIGCONT) every worker of the stack, Assay's and the raw engine's. */
function signalWorkers(stack: BenchStack, signal: 'SIGSTOP' | 'SIGCONT'): void {
  const workers = stack.processes.filter((measured) => measured.role === 'worker' || measured.role.startsWith('raw-worker'));
  if (!workers.some((measured) => measured.role === 'worker')) {
    throw new Error("creates alone stop the stack's workers: they need the bench's own worker, on a machine with /proc");
  }
  for (const worker of workers) process.kill(worker.pid, signal);
}

async function runMode(stack: BenchStack, mode: EngineMode, path: EnginePath, round: number, tasks: number, concurrency: number): Promise<EngineRun> {
  const measured = processesOf(stack, path.roles);
  const meter = new UsageMeter(measured);
  const offPath = new Map(stack.processes.filter((process) => !measured.includes(process)).map((process) => [process.pid, `${process.name} (off this path)`]));
  const machineMeter = measured.length === 0 ? undefined : new MachineMeter(measured.map((process) => process.pid), offPath);
  let failures = 0;
  const failureCauses: FailureCauses = {};
  let polls = 0;
  const countPoll = () => {
    polls += 1;
  };
  machineMeter?.start();
  meter.start();
  const startedAt = performance.now();
  await runClosedLoop(tasks, concurrency, async () => {
    try {
      await path.runTask(countPoll);
    } catch (error) {
      failures += 1;
      countFailure(failureCauses, failureCause('task', error));
    }
  });
  const elapsedMs = performance.now() - startedAt;
  const costs = meter.stop();
  const measuredCpuSeconds = costs.reduce((sum, cost) => sum + cost.cpuSeconds, 0);
  return {
    mode,
    round,
    tasks,
    elapsedMs,
    completionsPerSecond: tasks / (elapsedMs / 1000),
    cpuSecondsPerThousand: costs.length === 0 ? Number.NaN : (measuredCpuSeconds / tasks) * 1000,
    failures,
    failureCauses,
    pollsPerTask: mode === 'assay' ? polls / tasks : undefined,
    costs,
    machine: machineMeter?.stop(measuredCpuSeconds),
  };
}

import { ASSAY_ROLES, processesOf, type BenchStack } from '../bench-stack';
import { benchClients } from '../bench-client';
import { wallClockMs } from '../clock';
import { runOpenLoop } from '../open-loop';
import { distribution, type Distribution } from '../stats';
import { BENCH_TASK_INPUT } from '../task-input';
import { UsageMeter, type ProcessCost } from '../usage-meter';

export interface LatencyFigure {
  ratePerSecond: number;
  durationMs: number;
  /** Submit → the server's close time of the succeeded task (its updated_at). */
  endToEndMs: Distribution;
  /** Submit → 202 of the create. */
  createMs: Distribution;
  /** Share of tasks the SDK's first poll (1.5 s after the create answered) already saw final. */
  finalAtFirstPoll: number;
  /** GETs the SDK sent per task until it saw the task final. */
  pollsPerTask: number;
  failures: number;
  /** How late the arrivals fired against their schedule; the p99 shows whether the generator kept up. */
  arrivalLateP99Ms: number;
  /** CPU each process of the stack spent from the first arrival until the last task was final. */
  costs: ProcessCost[];
  elapsedMs: number;
  /** Ids of the succeeded tasks, for the GET scenario's mix of finished tasks. */
  succeededIds: string[];
  /** Ids of the succeeded tasks at or above the end-to-end p99, to look into where their time went. */
  slowestIds: string[];
}

export interface LatencyOptions {
  /** Whose tasks these are (default: the stack's key). */
  apiKey?: string;
  /** Stops the arrivals before durationMs once it holds. */
  stopWhen?: () => boolean;
}

/** Open-loop arrivals at a fixed rate, each task created and then polled by the SDK as a customer would. */
export async function runLatencyScenario(stack: BenchStack, ratePerSecond: number, durationMs: number, options: LatencyOptions = {}): Promise<LatencyFigure> {
  const nextClient = benchClients(stack, options.apiKey);
  const endToEnd: number[] = [];
  const creates: number[] = [];
  const succeeded: { id: string; endToEndMs: number }[] = [];
  const tasks: Promise<void>[] = [];
  let finalAtFirstPoll = 0;
  let polls = 0;
  let failures = 0;
  const meter = new UsageMeter(processesOf(stack, ASSAY_ROLES));
  meter.start();
  const startedAt = performance.now();
  const run = await runOpenLoop(ratePerSecond, durationMs, () => {
    const submittedAt = wallClockMs();
    tasks.push(
      (async () => {
        const client = nextClient();
      const task = await client.createTask({ task_type: 'summarize', input: BENCH_TASK_INPUT });
        creates.push(wallClockMs() - submittedAt);
        const final = await client.waitForTask(task, {
          onPoll: (seen, poll) => {
            polls += 1;
            if (poll === 1 && (seen.status === 'succeeded' || seen.status === 'failed')) finalAtFirstPoll += 1;
          },
        });
        const endToEndMs = Date.parse(final.updated_at) - submittedAt;
        endToEnd.push(endToEndMs);
        succeeded.push({ id: final.id, endToEndMs });
      })().catch(() => {
        failures += 1;
      }),
    );
  }, options.stopWhen);
  await Promise.all(tasks);
  const costs = meter.stop();
  const endToEndMs = distribution(endToEnd);
  return {
    ratePerSecond,
    durationMs,
    endToEndMs,
    createMs: distribution(creates),
    finalAtFirstPoll: finalAtFirstPoll / tasks.length,
    pollsPerTask: polls / tasks.length,
    failures,
    arrivalLateP99Ms: distribution(run.lateMs).p99,
    costs,
    elapsedMs: performance.now() - startedAt,
    succeededIds: succeeded.map((task) => task.id),
    slowestIds: succeeded.filter((task) => task.endToEndMs >= endToEndMs.p99).map((task) => task.id),
  };
}

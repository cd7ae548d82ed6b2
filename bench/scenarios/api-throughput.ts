import { ASSAY_ROLES, processesOf, type BenchStack } from '../bench-stack';
import { benchClients } from '../bench-client';
import { runClosedLoop } from '../closed-loop';
import { countFailure, failureCause, totalFailures, type FailureCauses } from '../failure-causes';
import { BENCH_TASK_INPUT } from '../task-input';
import { UsageMeter } from '../usage-meter';
import { throughputFigure, type ThroughputFigure } from './throughput';

export interface ApiThroughputFigure extends ThroughputFigure {
  /** From the first create to the last close time the server reported: the rate without the polling schedule's delay. */
  serverCompletionsPerSecond: number;
  /** GETs the SDK sent per task before it saw the task final; each one of a running task is a describe() on the server. */
  pollsPerTask: number;
  /** Ids of the succeeded tasks, for the GET scenario's mix of finished tasks. */
  succeededIds: string[];
  /** The failures by cause (`create 429` for a create the service refused: the bench's client does not retry), so a refusal is not read as a lost task. */
  failureCauses: FailureCauses;
}

/** The raw scenario's N tasks through the HTTP API, each awaited with the SDK's polling. */
export async function runApiThroughputScenario(stack: BenchStack, tasks: number, concurrency: number): Promise<ApiThroughputFigure> {
  const nextClient = benchClients(stack);
  const meter = new UsageMeter(processesOf(stack, ASSAY_ROLES));
  const waits: Promise<void>[] = [];
  const succeededIds: string[] = [];
  const failureCauses: FailureCauses = {};
  let lastCompletion = 0;
  let lastClose = 0;
  let polls = 0;
  const countPoll = () => {
    polls += 1;
  };
  meter.start();
  const startedAtWall = Date.now();
  const startedAt = performance.now();
  await runClosedLoop(tasks, concurrency, async () => {
    try {
      const client = nextClient();
      const task = await client.createTask({ task_type: 'summarize', input: BENCH_TASK_INPUT });
      waits.push(
        client.waitForTask(task, { onPoll: countPoll }).then(
          (final) => {
            lastCompletion = performance.now();
            lastClose = Math.max(lastClose, Date.parse(final.updated_at));
            succeededIds.push(final.id);
          },
          (error: unknown) => countFailure(failureCauses, failureCause('wait', error)),
        ),
      );
    } catch (error) {
      countFailure(failureCauses, failureCause('create', error));
    }
  });
  const submittedAt = performance.now();
  await Promise.all(waits);
  const failures = totalFailures(failureCauses);
  const figure = throughputFigure(tasks, concurrency, startedAt, submittedAt, lastCompletion, failures, meter.stop());
  return { ...figure, serverCompletionsPerSecond: tasks / ((lastClose - startedAtWall) / 1000), pollsPerTask: polls / tasks, succeededIds, failureCauses };
}

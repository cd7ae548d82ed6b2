import { processesOf, type BenchStack } from '../bench-stack';
import { benchClient } from '../bench-client';
import { runClosedLoop } from '../closed-loop';
import { HttpGetter, type GetResult } from '../http-getter';
import { runOpenLoop } from '../open-loop';
import { distribution, type Distribution } from '../stats';
import { BENCH_TASK_INPUT } from '../task-input';
import { UsageMeter, type ProcessCost } from '../usage-meter';

export interface GetLatencyFigure {
  pollsPerSecond: number;
  durationSeconds: number;
  latencyMs: Distribution;
  /** Anything but a 200, connection errors included. */
  failures: number;
  runningTasks: number;
  finishedTasks: number;
  costs: ProcessCost[];
}

const RUNNING_TASKS = 200;

/**
 * GET latency at fixed poll rates (open loop: each poll goes out when due, whatever the earlier
 * ones are doing) over a half-and-half mix of finished tasks (answered from the API's cache after
 * their first read) and running ones (a describe() on every poll). Running tasks are real creates
 * made while the bench's worker is paused; on a deployment the bench did not start, every task
 * in the mix is finished.
 */
export async function runGetLatencyScenario(
  stack: BenchStack,
  finishedIds: string[],
  rates: number[],
  durationSeconds: number,
): Promise<GetLatencyFigure[]> {
  const runningIds = stack.pauseWorker ? await createRunningTasks(stack) : [];
  const getter = new HttpGetter(stack.baseUrl, { authorization: `Bearer ${stack.apiKey}` });
  try {
    const finished = finishedIds.slice(0, Math.max(RUNNING_TASKS, runningIds.length));
    const mix = interleave(runningIds, finished);
    // Every id once, so finished tasks are in the API's cache as they would be after a client's first poll.
    await runClosedLoop(mix.length, 16, async (index) => {
      await getter.get(taskPath(mix[index]));
    });
    const figures: GetLatencyFigure[] = [];
    for (const rate of rates) {
      const meter = new UsageMeter(processesOf(stack, ['api', 'temporal', 'database', 'client']));
      meter.start();
      const results: Promise<GetResult>[] = [];
      await runOpenLoop(rate, durationSeconds * 1000, (index) => results.push(getter.get(taskPath(mix[index % mix.length]))));
      const answered = await Promise.all(results);
      figures.push({
        pollsPerSecond: rate,
        durationSeconds,
        latencyMs: distribution(answered.map((result) => result.ms)),
        failures: answered.filter((result) => result.status !== 200).length,
        runningTasks: runningIds.length,
        finishedTasks: finished.length,
        costs: meter.stop(),
      });
    }
    return figures;
  } finally {
    getter.close();
    stack.resumeWorker?.();
  }
}

function taskPath(id: string): string {
  return `/v1/ai/tasks/${id}`;
}

async function createRunningTasks(stack: BenchStack): Promise<string[]> {
  const client = benchClient(stack);
  stack.pauseWorker?.();
  const ids: string[] = [];
  await runClosedLoop(RUNNING_TASKS, 16, async () => {
    ids.push((await client.createTask({ task_type: 'summarize', input: BENCH_TASK_INPUT })).id);
  });
  return ids;
}

function interleave(first: string[], second: string[]): string[] {
  const mixed: string[] = [];
  for (let i = 0; i < Math.max(first.length, second.length); i++) {
    if (i < first.length) mixed.push(first[i]);
    if (i < second.length) mixed.push(second[i]);
  }
  return mixed;
}

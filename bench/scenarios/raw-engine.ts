import { Client, Connection, type WorkflowClient, type WorkflowHandle } from '@temporalio/client';
import { ulid } from 'ulid';
import { processesOf, rawEngineRoles, type BenchStack } from '../bench-stack';
import { runClosedLoop } from '../closed-loop';
import type { oneActivityWorkflow } from '../raw-engine/one-activity.workflow';
import { BENCH_TASK_INPUT } from '../task-input';
import { UsageMeter } from '../usage-meter';
import { throughputFigure, type ThroughputFigure } from './throughput';

/**
 * The engine's own limit for this design: one workflow per task running the task workflow's own
 * summary step (the same local activity, same options), started with the Temporal client directly
 * and awaited with its result() long poll, on the same server: no HTTP, no API, no polling
 * schedule, no search attributes, memo or webhook check, nothing Assay adds.
 */
export async function runRawEngineScenario(stack: BenchStack, tasks: number, concurrency: number): Promise<ThroughputFigure> {
  const connection = await Connection.connect(stack.connection);
  try {
    const workflows = new Client({ connection, namespace: stack.namespace }).workflow;
    const meter = new UsageMeter(processesOf(stack, rawEngineRoles()));
    const results: Promise<boolean>[] = [];
    let failures = 0;
    let lastCompletion = 0;
    meter.start();
    const startedAt = performance.now();
    await runClosedLoop(tasks, concurrency, async () => {
      try {
        const handle = await startRawTask(workflows, stack.rawTaskQueue);
        results.push(
          handle.result().then(
            () => {
              lastCompletion = performance.now();
              return true;
            },
            () => false,
          ),
        );
      } catch {
        failures += 1;
      }
    });
    const submittedAt = performance.now();
    failures += (await Promise.all(results)).filter((succeeded) => !succeeded).length;
    return throughputFigure(tasks, concurrency, startedAt, submittedAt, lastCompletion, failures, meter.stop());
  } finally {
    await connection.close();
  }
}

/** One task on the raw engine: the one-activity workflow on the bench's task input. */
export function startRawTask(workflows: WorkflowClient, taskQueue: string): Promise<WorkflowHandle<typeof oneActivityWorkflow>> {
  return workflows.start<typeof oneActivityWorkflow>('oneActivityWorkflow', { taskQueue, workflowId: `raw/${ulid()}`, args: [BENCH_TASK_INPUT] });
}

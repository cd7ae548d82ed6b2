import { metricMeter, workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { AI_TASK_WORKFLOW_TYPE, type AiTaskOutcome, type AiTaskWorkflowInput } from '../../src/contract';

/**
 * Counts each AI task when its workflow returns the outcome, as assay_tasks_finished_total on
 * the worker's metrics endpoint. It runs in the workflow sandbox (bundled beside the workflows by
 * src/worker/bundle-workflows.ts) and only observes: it issues no command, so recorded histories
 * replay unchanged. Temporal's workflow meter emits nothing while replaying, so a task counts
 * once, or twice in the rare case of a worker dying between finishing and the server recording it.
 */
export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      // Not async, and other workflows' runs pass straight through: the SDK records a stack trace
      // for every promise a workflow makes (its stack-trace query), a cost per promise per task.
      execute(input, next) {
        const running = next(input);
        if (workflowInfo().workflowType !== AI_TASK_WORKFLOW_TYPE) return running;
        return running.then((result) => {
          countFinished(input.args[0] as AiTaskWorkflowInput, result as AiTaskOutcome);
          return result;
        });
      },
    },
  ],
});

function countFinished(input: AiTaskWorkflowInput, outcome: AiTaskOutcome): void {
  metricMeter
    .createCounter('assay_tasks_finished', undefined, 'AI tasks that reached a final status, by task type, outcome and failure code')
    .add(1, { task_type: input.taskType, outcome: outcome.status, error_code: outcome.status === 'failed' ? outcome.error.code : 'none' });
}

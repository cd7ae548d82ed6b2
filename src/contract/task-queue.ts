/** The task queue every workflow and activity runs on unless TEMPORAL_TASK_QUEUE names another. */
export const DEFAULT_TASK_QUEUE = 'assay';

const BATCH_QUEUE_SUFFIX = '/batch';

/**
 * The queue a batch's items run on, beside the one single creates run on: a worker serves it with
 * slots of its own (WORKER_BATCH_SLOTS), so a batch never holds the slots a neighbour's task needs.
 */
export function batchTaskQueue(taskQueue: string): string {
  return `${taskQueue}${BATCH_QUEUE_SUFFIX}`;
}

/**
 * The task queue single creates run on, for a workflow on it or on its batch queue: what a batch's
 * item shares with every other task, such as its model's queue.
 */
export function deploymentTaskQueue(workflowTaskQueue: string): string {
  return workflowTaskQueue.endsWith(BATCH_QUEUE_SUFFIX) ? workflowTaskQueue.slice(0, -BATCH_QUEUE_SUFFIX.length) : workflowTaskQueue;
}

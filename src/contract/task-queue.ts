/** The task queue every workflow and activity runs on unless TEMPORAL_TASK_QUEUE names another. */
export const DEFAULT_TASK_QUEUE = 'assay';

/**
 * The queue a batch's items run on, beside the one single creates run on: a worker serves it with
 * slots of its own (WORKER_BATCH_SLOTS), so a batch never holds the slots a neighbour's task needs.
 */
export function batchTaskQueue(taskQueue: string): string {
  return `${taskQueue}/batch`;
}

import type { Batch, BatchItem, Task, TaskError } from '../../sdk';

/** One stdout line of `assay summarize --batch`: an item, its task and how the task ended. */
export type BatchResultLine = { key: string | undefined; task_id: string } & (
  | { status: 'succeeded'; summary: string }
  | { status: 'failed'; error: TaskError }
  | { status: 'queued' | 'running' }
);

/** A batch that ended with items not succeeded: some failed, or a cancel kept some from running. */
export class BatchItemsFailedError extends Error {
  override name = 'BatchItemsFailedError';
}

export function resultLine(task: Task): BatchResultLine {
  const item = { key: task.item_key, task_id: task.id };
  switch (task.status) {
    case 'succeeded':
      return { ...item, status: task.status, summary: task.output.summary };
    case 'failed':
      return { ...item, status: task.status, error: { code: task.error.code, message: task.error.message } };
    default:
      return { ...item, status: task.status };
  }
}

/** The tasks in their items' order, so the output lines follow the input lines. */
export function inItemOrder(tasks: readonly Task[], items: readonly BatchItem[]): Task[] {
  const position = new Map(items.map((item, index) => [item.key, index]));
  const positionOf = (task: Task) => position.get(task.item_key ?? '') ?? items.length;
  return [...tasks].sort((a, b) => positionOf(a) - positionOf(b));
}

/** Throws BatchItemsFailedError, saying how many items did what, unless every item of the ended batch succeeded. */
export function checkEveryItemSucceeded(batch: Batch, lines: readonly BatchResultLine[]): void {
  const succeeded = lines.filter((line) => line.status === 'succeeded').length;
  if (succeeded === batch.counts.total) return;
  const failed = lines.filter((line) => line.status === 'failed').length;
  const neverRan = batch.counts.total - lines.length;
  throw new BatchItemsFailedError(
    `Batch ${batch.id}: ${succeeded} of ${batch.counts.total} items succeeded, ${failed} failed` +
      (neverRan > 0 ? `, ${neverRan} never ran` : '') +
      '; each task is on stdout',
  );
}

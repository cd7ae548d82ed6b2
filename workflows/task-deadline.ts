// A task's deadline: a workflow-only helper of the task workflow.

import { CancellationScope, sleep } from '@temporalio/workflow';
import { deadlineError, type AiTaskOutcome } from '../src/contract';

/**
 * The task's work, cut off at its deadline by a durable timer: when the timer fires first, the
 * work's scope is canceled (its model calls with it) and the task fails TIMED_OUT. A deadline
 * already past when the workflow first runs fails it before any work, so no model is called.
 */
export async function beforeDeadline(deadline: string | undefined, work: () => Promise<AiTaskOutcome>): Promise<AiTaskOutcome> {
  if (deadline === undefined) return work();
  const remainingMs = Date.parse(deadline) - Date.now();
  if (remainingMs <= 0) return { status: 'failed', error: deadlineError(deadline) };
  const scope = new CancellationScope();
  let expired = false;
  // The timer is left pending when the work finishes first: the workflow then closes, and it with it.
  sleep(remainingMs).then(
    () => {
      expired = true;
      scope.cancel();
    },
    // The task itself was canceled: the work's scope sees that too.
    () => undefined,
  );
  const outcome = await scope.run(work);
  return expired ? { status: 'failed', error: deadlineError(deadline) } : outcome;
}

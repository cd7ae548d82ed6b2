// A task's deadline: a workflow-only helper of the task workflow.

import { CancellationScope, patched, sleep } from '@temporalio/workflow';
import { DEADLINE_AT_DECISION_PATCH, deadlineError, type AiTaskOutcome } from '../src/contract';

/**
 * The task's work, cut off at its deadline by a durable timer: when the timer fires first, the
 * work's scope is canceled (its model calls with it) and the task fails TIMED_OUT. A deadline
 * already past when the workflow first runs fails it before any work, so no model is called.
 *
 * Work that finishes after the deadline fails TIMED_OUT too, though the timer has not fired: the
 * server starts the timer when the workflow task that asked for it completes, so it fires late by
 * that task's duration (150 ms and more under load), and only the workflow's own clock, the start
 * of the workflow task that sees the work end, says the work came too late.
 */
export async function beforeDeadline(deadline: string | undefined, work: () => Promise<AiTaskOutcome>): Promise<AiTaskOutcome> {
  if (deadline === undefined) return work();
  const deadlineMs = Date.parse(deadline);
  const remainingMs = deadlineMs - Date.now();
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
  // Without the patch, replay only (deadline-at-decision, may go from 2026-12-28): work that ended before the timer succeeded.
  const late = expired || (patched(DEADLINE_AT_DECISION_PATCH) && Date.now() >= deadlineMs);
  return late ? { status: 'failed', error: deadlineError(deadline) } : outcome;
}

import type { Client, WorkflowExecutionDescription } from '@temporalio/client';
import { assessmentWorkflowId, taskWorkflowId, type AssessmentMemo } from '../../src/contract';
import { forEachConcurrently, sleep } from '../clients/concurrency';
import type { WorkItem } from '../clients/work-items';
import { CHAOS_ORGANIZATION } from '../stack/chaos-stack';

const WAITING_LANES = 4;
const RECHECK_MS = 250;

/** When an assessment counts as done: its checks ran (still waiting for a reviewer), or its review completed. */
export type AssessmentGoal = 'checked' | 'completed';

export function workflowIdOf(item: WorkItem, id: string): string {
  return item.kind === 'task' ? taskWorkflowId(CHAOS_ORGANIZATION, id) : assessmentWorkflowId(CHAOS_ORGANIZATION, id);
}

/**
 * Waits until the workflow of every accepted item is done, asking the server directly
 * (describe, not visibility, which lags). A few lanes walk the list, each waiting on one workflow
 * at a time, so waiting costs the server little. Resolves with when the last one was done, or
 * undefined when the timeout came first.
 */
export async function waitForDrain(client: Client, items: readonly WorkItem[], goal: AssessmentGoal, timeoutMs: number): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  const entries = items.filter((item) => item.accepted).flatMap((item) => [...item.ids].map((id) => ({ item, workflowId: workflowIdOf(item, id) })));
  let timedOut = false;
  await forEachConcurrently(entries, WAITING_LANES, async ({ item, workflowId }) => {
    while (!timedOut) {
      const description = await client.workflow
        .getHandle(workflowId)
        .describe()
        .catch(() => undefined);
      if (description && isDone(item, description, goal)) return;
      if (Date.now() > deadline) timedOut = true;
      else await sleep(RECHECK_MS);
    }
  });
  return timedOut ? undefined : Date.now();
}

function isDone(item: WorkItem, description: WorkflowExecutionDescription, goal: AssessmentGoal): boolean {
  if (item.kind === 'task' || goal === 'completed') return description.status.name !== 'RUNNING';
  return (description.memo as AssessmentMemo | undefined)?.state?.checks_completed === true;
}

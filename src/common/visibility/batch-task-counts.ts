import type { Client } from '@temporalio/client';
import { AI_TASK_WORKFLOW_TYPE, BATCH_SEARCH_ATTRIBUTE, ORGANIZATION_SEARCH_ATTRIBUTE, STATUS_SEARCH_ATTRIBUTE, type BatchTaskCounts } from '../../contract';
import { equals, notEquals, visibilityQuery } from './visibility-query';

/** The clauses that select a batch's tasks; the organisation is one, so no other organisation's tasks count. */
export function batchTaskClauses(organizationId: string, batchId: string): string[] {
  return [equals('WorkflowType', AI_TASK_WORKFLOW_TYPE), equals(ORGANIZATION_SEARCH_ATTRIBUTE.name, organizationId), equals(BATCH_SEARCH_ATTRIBUTE.name, batchId)];
}

/**
 * A batch's admitted tasks by state, from visibility: the batch workflow ends on these counts and
 * the API shows them. An erased task counts nowhere; one an operator closed counts as failed.
 */
export async function countBatchTasks(client: Client, organizationId: string, batchId: string): Promise<BatchTaskCounts> {
  const clauses = batchTaskClauses(organizationId, batchId);
  const count = async (clause: string) => (await client.workflow.count(visibilityQuery([...clauses, clause]))).count;
  // Closed before succeeded: a task that succeeds between the two counts is in succeeded only, so
  // closed − succeeded may run a little low for a moment (floored at 0), never showing a failure that is not there.
  const [running, [closed, succeeded]] = await Promise.all([
    count(equals('ExecutionStatus', 'Running')),
    count(notEquals('ExecutionStatus', 'Running')).then(async (closedCount) => [closedCount, await count(equals(STATUS_SEARCH_ATTRIBUTE.name, 'succeeded'))]),
  ]);
  return { running, succeeded, failed: Math.max(0, closed - succeeded) };
}

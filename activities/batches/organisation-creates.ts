import type { WorkflowClient } from '@temporalio/client';
import { AI_TASK_WORKFLOW_TYPE, BATCH_SEARCH_ATTRIBUTE, ORGANIZATION_SEARCH_ATTRIBUTE } from '../../src/contract';
import { equals, quote, visibilityQuery } from '../../src/common/visibility/visibility-query';

/**
 * The organisation's tasks created one at a time (a batch's items excluded) that started since
 * `since`: what its creates took of the organisation's rate, which its batches then do not get.
 */
export async function createsStartedSince(workflows: WorkflowClient, organizationId: string, since: Date): Promise<number> {
  const query = visibilityQuery([
    equals(ORGANIZATION_SEARCH_ATTRIBUTE.name, organizationId),
    equals('WorkflowType', AI_TASK_WORKFLOW_TYPE),
    `${BATCH_SEARCH_ATTRIBUTE.name} IS NULL`,
    `StartTime > ${quote(since.toISOString())}`,
  ]);
  return (await workflows.count(query)).count;
}

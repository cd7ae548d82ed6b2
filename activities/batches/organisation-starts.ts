import type { WorkflowClient } from '@temporalio/client';
import { AI_TASK_WORKFLOW_TYPE, BATCH_SEARCH_ATTRIBUTE, ORGANIZATION_SEARCH_ATTRIBUTE } from '../../src/contract';
import { either, equals, notEquals, quote, visibilityQuery } from '../../src/common/visibility/visibility-query';

/**
 * The organisation's tasks that started since `since`, other than the batch's own items: its
 * creates and its other batches' items, which took their part of the organisation's rate.
 */
export async function othersStartedSince(workflows: WorkflowClient, organizationId: string, batchId: string, since: Date): Promise<number> {
  const query = visibilityQuery([
    equals(ORGANIZATION_SEARCH_ATTRIBUTE.name, organizationId),
    equals('WorkflowType', AI_TASK_WORKFLOW_TYPE),
    // IS NULL too: SQL's != does not match a workflow without the attribute (a create).
    either(`${BATCH_SEARCH_ATTRIBUTE.name} IS NULL`, notEquals(BATCH_SEARCH_ATTRIBUTE.name, batchId)),
    `StartTime > ${quote(since.toISOString())}`,
  ]);
  return (await workflows.count(query)).count;
}

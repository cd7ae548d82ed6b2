import { ApplicationFailure } from '@temporalio/common';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { toBatchResource } from '../../src/common/resources/batch-resource';
import { expiresAt } from '../../src/common/resources/expiry';
import { toAssessmentResource } from '../../src/common/resources/assessment-resource';
import { taskFromDescription } from '../../src/common/resources/task-from-description';
import type { WorkflowStatusName } from '../../src/common/resources/task-resource';
import type { AiBatchMemo, AiTaskOutcome, AssessmentMemo, WebhookEventInput, WebhookEventType } from '../../src/contract';
import type { Assessment, Batch, Task } from '../../src/contract/wire';

/**
 * The event's resource exactly as GET answers it, built from the source workflow's describe()
 * with the API's own mapping. A task is final only once its workflow has closed (updated_at is
 * its close time), as is a batch, so until then this fails with a retryable SOURCE_NOT_FINAL. Undefined when the
 * resource was erased.
 */
export async function readEventResource(client: Client, input: WebhookEventInput & { type: WebhookEventType }, retentionMs: number): Promise<Task | Batch | Assessment | undefined> {
  const handle = client.workflow.getHandle(input.sourceWorkflowId);
  const description = await handle.describe().catch((error: unknown) => {
    if (error instanceof WorkflowNotFoundError) return undefined;
    throw error;
  });
  if (!description) return undefined;
  const status = description.status.name as WorkflowStatusName;
  if (input.type === 'ai_task.completed') {
    if (status === 'RUNNING') throw ApplicationFailure.retryable('The task workflow has not closed yet', 'SOURCE_NOT_FINAL');
    return (await taskFromDescription(input.resourceId, description, () => handle.result() as Promise<AiTaskOutcome>, retentionMs)).resource;
  }
  if (input.type === 'ai_batch.completed') {
    if (status === 'RUNNING') throw ApplicationFailure.retryable('The batch workflow has not closed yet', 'SOURCE_NOT_FINAL');
    return toBatchResource({ batchId: input.resourceId, memo: description.memo as unknown as AiBatchMemo, status, closedAt: description.closeTime, retentionMs });
  }
  const resource = toAssessmentResource(input.resourceId, description.memo as unknown as AssessmentMemo, expiresAt(description.closeTime, retentionMs));
  if (resource.status !== 'completed') throw ApplicationFailure.retryable('The assessment has not published its review yet', 'SOURCE_NOT_FINAL');
  return resource;
}

import { randomUUID } from 'node:crypto';
import type { Connection } from '@temporalio/client';

/** What an operator does from the Temporal UI: reset the run to the end of its first workflow task. */
export async function resetToFirstWorkflowTask(connection: Connection, namespace: string, workflowId: string): Promise<void> {
  const service = connection.workflowService;
  const execution = (await service.describeWorkflowExecution({ namespace, execution: { workflowId } })).workflowExecutionInfo?.execution;
  const history = await service.getWorkflowExecutionHistory({ namespace, execution });
  const firstTaskCompleted = history.history?.events?.find((event) => event.workflowTaskCompletedEventAttributes);
  await service.resetWorkflowExecution({
    namespace,
    workflowExecution: execution,
    reason: 'operator reset in a test',
    workflowTaskFinishEventId: firstTaskCompleted?.eventId,
    requestId: randomUUID(),
  });
}

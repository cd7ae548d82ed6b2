import { AI_TASK_WORKFLOW_ID_PREFIX } from '../../contract';
import { ID_KINDS } from './id-kinds';

export const { newId: newTaskId, idForIdempotencyKey: taskIdForIdempotencyKey, isId: isTaskId, pattern: TASK_ID_PATTERN } = ID_KINDS.task;

/** The task id at the end of a task workflow id, or undefined for any other workflow id. */
export function taskIdFromWorkflowId(workflowId: string): string | undefined {
  const taskId = workflowId.slice(workflowId.lastIndexOf('/') + 1);
  return workflowId.startsWith(AI_TASK_WORKFLOW_ID_PREFIX) && isTaskId(taskId) ? taskId : undefined;
}

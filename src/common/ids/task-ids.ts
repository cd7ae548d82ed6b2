import { derivedPrefixedId, newPrefixedId, prefixedIdMatcher, prefixedIdPattern } from './prefixed-ulid';
import { AI_TASK_WORKFLOW_ID_PREFIX, TASK_ID_PREFIX } from '../../contract';

export function newTaskId(): string {
  return newPrefixedId(TASK_ID_PREFIX);
}

/** The task id for (organisation, Idempotency-Key); see derivedPrefixedId. */
export function taskIdForIdempotencyKey(organizationId: string, idempotencyKey: string): string {
  return derivedPrefixedId(TASK_ID_PREFIX, organizationId, idempotencyKey);
}

export const isTaskId: (value: string) => boolean = prefixedIdMatcher(TASK_ID_PREFIX);
export const TASK_ID_PATTERN = prefixedIdPattern(TASK_ID_PREFIX);

/** The task id at the end of a task workflow id, or undefined for any other workflow id. */
export function taskIdFromWorkflowId(workflowId: string): string | undefined {
  const taskId = workflowId.slice(workflowId.lastIndexOf('/') + 1);
  return workflowId.startsWith(AI_TASK_WORKFLOW_ID_PREFIX) && isTaskId(taskId) ? taskId : undefined;
}

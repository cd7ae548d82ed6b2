import { derivedPrefixedId, newPrefixedId, prefixedIdMatcher } from '../ids/prefixed-ulid';
import { TASK_ID_PREFIX } from '../../workflows/shared';

export function newTaskId(): string {
  return newPrefixedId(TASK_ID_PREFIX);
}

/** The task id for (organisation, Idempotency-Key); see derivedPrefixedId. */
export function taskIdForIdempotencyKey(organizationId: string, idempotencyKey: string): string {
  return derivedPrefixedId(TASK_ID_PREFIX, organizationId, idempotencyKey);
}

export const isTaskId: (value: string) => boolean = prefixedIdMatcher(TASK_ID_PREFIX);

/** The task id at the end of a task workflow id, or undefined for any other workflow id. */
export function taskIdFromWorkflowId(workflowId: string): string | undefined {
  const taskId = workflowId.slice(workflowId.lastIndexOf('/') + 1);
  return workflowId.startsWith('ai-task/') && isTaskId(taskId) ? taskId : undefined;
}

/** The organisation is part of the workflow id, so another organisation's task id resolves to nothing. */
export function taskWorkflowId(organizationId: string, taskId: string): string {
  return `ai-task/${organizationId}/${taskId}`;
}

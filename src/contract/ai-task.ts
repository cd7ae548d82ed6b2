// AI tasks: ids, workflow, inputs, outcomes and the memo the API reads.

export const AI_TASK_WORKFLOW_TYPE = 'aiTaskWorkflow';
export const TASK_ID_PREFIX = 'task_';
export const AI_TASK_WORKFLOW_ID_PREFIX = 'ai-task/';

/** The organisation is part of the workflow id, so another organisation's task id resolves to nothing. */
export function taskWorkflowId(organizationId: string, taskId: string): string {
  return `${AI_TASK_WORKFLOW_ID_PREFIX}${organizationId}/${taskId}`;
}

export type TaskStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type TaskErrorCode = 'INPUT_REJECTED' | 'PROVIDER_UNAVAILABLE' | 'TIMED_OUT' | 'CANCELED' | 'INTERNAL';

export interface TaskError {
  code: TaskErrorCode;
  message: string;
}

export interface SummarizeInput {
  text: string;
  max_sentences?: number;
}

export interface AiTaskWorkflowInput {
  taskId: string;
  organizationId: string;
  taskType: 'summarize';
  input: SummarizeInput;
}

/** What the workflow returns when it closes; a failed task is a completed workflow with this shape. */
export type AiTaskOutcome =
  | { status: 'succeeded'; output: { summary: string } }
  | { status: 'failed'; error: TaskError };

/** Memo written when a task workflow starts; lets the API answer without a worker. */
export interface AiTaskMemo {
  created_at: string;
  task_type: 'summarize';
  /** SHA-256 of the normalised request, to tell an idempotent replay from a reused key. */
  request_hash: string;
  /** Written by the workflow as it closes, so lists and GETs need no second call for the result. */
  outcome?: AiTaskOutcome;
}

import type { SearchAttributePair } from '@temporalio/common';
import {
  BATCH_SEARCH_ATTRIBUTE,
  ORGANIZATION_SEARCH_ATTRIBUTE,
  TASK_TYPE_SEARCH_ATTRIBUTE,
  type AiTaskMemo,
  type AiTaskWorkflowInput,
  type SummarizeInput,
  type TaskModel,
  type TaskPriority,
  type TaskType,
} from '../../contract';

// After a deadline, the time a workflow gets to fail the task itself (its usage and webhook event
// included) before Temporal closes it as timed out.
const DEADLINE_BACKSTOP_MS = 5 * 60_000;

/** One task to start, whether a create or a batch's admission starts it. */
export interface AiTaskStartSpec {
  taskId: string;
  organizationId: string;
  taskType: TaskType;
  input: SummarizeInput;
  model: TaskModel;
  priority: TaskPriority;
  deadline?: string;
  createdAt: Date;
  requestHash: string;
  batch?: { id: string; itemKey: string };
}

/** The parts of a task workflow's start that say what the task is; the caller adds id, queue and policies. */
export interface AiTaskStart {
  args: [AiTaskWorkflowInput];
  memo: AiTaskMemo;
  typedSearchAttributes: SearchAttributePair[];
  /** The workflow's own timer fails the task at its deadline; this closes it even if no worker runs then. */
  workflowExecutionTimeout?: number;
}

export function aiTaskStart(spec: AiTaskStartSpec): AiTaskStart {
  const memo: AiTaskMemo = { created_at: spec.createdAt.toISOString(), task_type: spec.taskType, request_hash: spec.requestHash, model: spec.model.name };
  if (spec.deadline !== undefined) memo.deadline = spec.deadline;
  if (spec.priority !== 'normal') memo.priority = spec.priority;
  const typedSearchAttributes: SearchAttributePair[] = [
    { key: ORGANIZATION_SEARCH_ATTRIBUTE, value: spec.organizationId },
    { key: TASK_TYPE_SEARCH_ATTRIBUTE, value: spec.taskType },
  ];
  if (spec.batch) {
    memo.batch_id = spec.batch.id;
    memo.item_key = spec.batch.itemKey;
    typedSearchAttributes.push({ key: BATCH_SEARCH_ATTRIBUTE, value: spec.batch.id });
  }
  const input: AiTaskWorkflowInput = { taskId: spec.taskId, organizationId: spec.organizationId, taskType: spec.taskType, input: spec.input, model: spec.model };
  if (spec.deadline !== undefined) input.deadline = spec.deadline;
  return {
    args: [input],
    memo,
    typedSearchAttributes,
    ...(spec.deadline === undefined ? {} : { workflowExecutionTimeout: Math.max(Date.parse(spec.deadline) - spec.createdAt.getTime(), 0) + DEADLINE_BACKSTOP_MS }),
  };
}

// AI tasks: ids, workflow, inputs, outcomes and the memo the API reads.

import type { FailedTask, SucceededTask, SummarizeInput, TaskError, TaskProgress } from './wire/task';
import type { TaskErrorCode, TaskPriority, TaskType } from './wire/values';
import type { TaskModel } from './models';

// What a client sends and reads of a task is the wire's to declare (./wire/task).
export type { SummarizeInput, TaskError } from './wire/task';

export const AI_TASK_WORKFLOW_TYPE = 'aiTaskWorkflow';
export const AI_TASK_WORKFLOW_ID_PREFIX = 'ai-task/';

/** The organisation is part of the workflow id, so another organisation's task id resolves to nothing. */
export function taskWorkflowId(organizationId: string, taskId: string): string {
  return `${AI_TASK_WORKFLOW_ID_PREFIX}${organizationId}/${taskId}`;
}

/** The ApplicationFailure types with which the summarise activities fail on purpose; the task shows them to the client as they are. */
export const ACTIVITY_TASK_ERROR_CODES = ['INPUT_REJECTED', 'PROVIDER_UNAVAILABLE'] as const satisfies readonly TaskErrorCode[];
export type ActivityTaskErrorCode = (typeof ACTIVITY_TASK_ERROR_CODES)[number];

// The errors both the workflow (when its work fails so) and the API (when the workflow itself was
// canceled, terminated or timed out) write, so a client reads the same words whichever wrote them.
export const TASK_CANCELED_ERROR: Readonly<TaskError> = { code: 'CANCELED', message: 'The task was canceled' };
export const TASK_TIMED_OUT_ERROR: Readonly<TaskError> = { code: 'TIMED_OUT', message: 'The task did not finish in time' };
export const TASK_INTERNAL_ERROR: Readonly<TaskError> = { code: 'INTERNAL', message: 'The task failed because of an internal error' };

/** The summarising activities of a task's workflow; activities/summarize implements them. */
export interface SummarizeActivities {
  /**
   * Replay only, and the bench's raw engine: tasks that name no model (created before models could
   * be chosen) on a worker whose default provider is remote, and tasks started before
   * `local-summary`, summarise in this activity on the task queue. The name stays: it is recorded in
   * their histories.
   */
  summarize(input: SummarizeInput): Promise<string>;
  /** Run as a local activity: the summary when the provider computes in process, else null (use `summarize`). Replay only, and the bench's raw engine: tasks that name no model. */
  summarizeInProcess(input: SummarizeInput): Promise<string | null>;
  /** Run as a local activity: the built-in model's summary, whatever the worker's default. */
  summarizeExtractive(input: SummarizeInput): Promise<string>;
}

export interface AiTaskWorkflowInput {
  taskId: string;
  organizationId: string;
  taskType: TaskType;
  input: SummarizeInput;
  /** Absent in tasks created before models were configurable: they run on the worker's default summariser. */
  model?: TaskModel;
  /** RFC 3339: a task not final by then fails TIMED_OUT; absent, it runs however long it takes. */
  deadline?: string;
}

/**
 * What each priority adds to its organisation's fairness key: one lane per priority, so an
 * organisation's urgent work never queues behind its own bulk (docs/architecture.md, Fair dispatch).
 * One character each, outside the organisation ids' alphabet, so every lane key fits Temporal's 64 bytes.
 */
export const PRIORITY_LANE_SUFFIXES: Record<TaskPriority, string> = { high: '+', normal: '', low: '~' };

/** The error of a task whose deadline passed before it was final. */
export function deadlineError(deadline: string): TaskError {
  return { code: 'TIMED_OUT', message: `The task did not finish by its deadline, ${deadline}` };
}

/** What the workflow returns when it closes; a failed task is a completed workflow with this shape. */
export type AiTaskOutcome = Pick<SucceededTask, 'status' | 'output' | 'usage'> | Pick<FailedTask, 'status' | 'error' | 'usage'>;

/** Memo written when a task workflow starts; lets the API answer without a worker. */
export interface AiTaskMemo {
  created_at: string;
  task_type: TaskType;
  /** SHA-256 of the normalised request, to tell an idempotent replay from a reused key. */
  request_hash: string;
  /** The model's name; absent in tasks created before models were configurable. */
  model?: string;
  /** RFC 3339, when the create set one. */
  deadline?: string;
  /** When the create asked for another than normal. */
  priority?: TaskPriority;
  /** On the task of a batch's item: the batch and the item's key in it. */
  batch_id?: string;
  item_key?: string;
  /** Written by a task that runs in steps (a remote model) as each step completes. */
  progress?: TaskProgress;
  /** Written by the workflow as it closes, so lists and GETs need no second call for the result. */
  outcome?: AiTaskOutcome;
}

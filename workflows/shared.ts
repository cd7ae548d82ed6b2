// The one contract between API, worker and workflows: task queue, workflow inputs and outputs,
// signals, queries and updates. Imported by relative path from every side; it must stay free of
// Node built-ins because the workflow bundle includes it.

export const TASK_QUEUE = 'assay';

export const TASK_ID_PREFIX = 'task_';
export const ASSESSMENT_ID_PREFIX = 'asmt_';

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
}

export interface NetworkComponent {
  id: string;
  kind: string;
  zone: string;
  attributes?: Record<string, string | number | boolean>;
}

export interface NetworkLink {
  from: string;
  to: string;
  kind?: string;
}

export interface NetworkGraph {
  components: NetworkComponent[];
  links: NetworkLink[];
}

export type FindingSeverity = 'critical' | 'high' | 'medium' | 'low' | 'info';

export interface Finding {
  /** Stable machine name of the check, e.g. "single_point_of_failure". */
  check: string;
  severity: FindingSeverity;
  message: string;
  component_ids: string[];
}

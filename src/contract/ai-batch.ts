// AI task batches: many tasks accepted in one request, staged, and admitted as tasks by the
// batch's own workflow at a pace the service chooses.

import type { BatchCounts } from './wire/batch';
import type { TaskPriority, TaskType } from './wire/values';
import type { TaskModel } from './models';

export const AI_BATCH_WORKFLOW_TYPE = 'aiBatchWorkflow';
export const AI_BATCH_WORKFLOW_ID_PREFIX = 'ai-batch/';

export function batchWorkflowId(organizationId: string, batchId: string): string {
  return `${AI_BATCH_WORKFLOW_ID_PREFIX}${organizationId}/${batchId}`;
}

/**
 * Admission: items become tasks a page at a time while fewer than the window of a batch's tasks
 * are unfinished, so a 10,000-item batch never puts 10,000 workflows on the queue at once; the
 * organisation's fairness key and the models' limits pace the tasks themselves.
 */
export const BATCH_ADMISSION_PAGE = 250;
export const BATCH_ADMISSION_WINDOW = 1_000;
export const BATCH_PROGRESS_INTERVAL_MS = 3_000;
/** While a paced batch admits, it looks again this often, so its tasks arrive as evenly as single creates would. */
export const BATCH_PACED_ADMISSION_INTERVAL_MS = 1_000;

/**
 * The organisation's fair pace: its create rate limit (RATE_LIMIT_ORGANISATION_CREATES_*), so a
 * batch reaches the workers no faster than the organisation's own creates may, which is what keeps
 * its neighbours' latency (docs/benchmarks.md, Noisy neighbour).
 */
export interface BatchAdmissionPace {
  perMinute: number;
  burst: number;
}

export interface AiBatchWorkflowInput {
  batchId: string;
  organizationId: string;
  taskType: TaskType;
  model: TaskModel;
  priority: TaskPriority;
  /** RFC 3339: every item's task fails TIMED_OUT if not final by then. */
  deadline?: string;
  /** RFC 3339, the batch's acceptance: every item's task shows it as its created_at. */
  createdAt: string;
  total: number;
  /** Absent on batches accepted before admission was paced: they admit as fast as the window lets them. */
  pace?: BatchAdmissionPace;
  /** Carried over continue-as-new. */
  admitted?: number;
  canceledAt?: string;
}

/** Where a batch's tasks stand, as visibility counts them. */
export interface BatchTaskCounts {
  running: number;
  succeeded: number;
  /** Closed otherwise: failed, canceled, timed out. */
  failed: number;
}

/** The counts a batch resource shows: the wire's to declare. */
export type { BatchCounts } from './wire/batch';

export interface AiBatchMemo {
  created_at: string;
  /** SHA-256 of the normalised request, to tell an idempotent replay from a reused key. */
  request_hash: string;
  task_type: TaskType;
  model: string;
  priority: TaskPriority;
  deadline?: string;
  total: number;
  admitted: number;
  /** When the batch workflow took a cancel request. */
  canceled_at?: string;
  /** Written as the batch ends, so its resource needs no count once it has. */
  outcome?: { ended_at: string; counts: BatchCounts };
}

export interface BatchAdmission extends Omit<AiBatchWorkflowInput, 'admitted' | 'canceledAt' | 'pace'> {
  fromIndex: number;
  limit: number;
  /**
   * A paced admission: when the pace's `limit` began to accrue (epoch ms), so what the
   * organisation's creates and other batches started since then is taken from it. Absent in
   * admissions scheduled before it was sent: the last admission interval is taken instead.
   */
  accruedSince?: number;
}

export interface BatchRef {
  organizationId: string;
  batchId: string;
}

export interface BatchActivities {
  /** Starts the tasks of staged items from `fromIndex` on (at most `limit`) and unstages them; returns how many it admitted. */
  admitBatchItems(admission: BatchAdmission): Promise<number>;
  countBatchTasks(batch: BatchRef): Promise<BatchTaskCounts>;
  /** Unstages the items not admitted yet; returns how many. */
  withdrawBatchItems(batch: BatchRef): Promise<number>;
  /** Requests cancellation of the batch's unfinished tasks; returns how many. */
  cancelBatchTasks(batch: BatchRef): Promise<number>;
}

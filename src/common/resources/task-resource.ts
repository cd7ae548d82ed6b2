import { TASK_CANCELED_ERROR, TASK_INTERNAL_ERROR, TASK_TIMED_OUT_ERROR, type AiTaskMemo, type AiTaskOutcome } from '../../contract';
import type { PendingTask, Task } from '../../contract/wire/task';
import { expiresAt } from './expiry';

export type WorkflowStatusName =
  | 'RUNNING'
  | 'COMPLETED'
  | 'FAILED'
  | 'CANCELLED'
  | 'TERMINATED'
  | 'CONTINUED_AS_NEW'
  | 'TIMED_OUT'
  | 'UNKNOWN';

export interface PendingActivityView {
  started: boolean;
  attempt: number;
  lastStartedAt?: Date;
}

export interface PendingWorkflowTaskView {
  started: boolean;
  attempt: number;
  startedAt?: Date;
}

/** What the API knows of a task workflow from describe() (plus its result once closed); no worker needed. */
export interface TaskWorkflowView {
  taskId: string;
  memo: AiTaskMemo;
  status: WorkflowStatusName;
  historyLength: number;
  closedAt?: Date;
  /** How long the namespace keeps a closed workflow. */
  retentionMs: number;
  /** Only tasks started before the local-summary patch have one: their summary ran on the task queue. */
  pendingActivities: PendingActivityView[];
  pendingWorkflowTask?: PendingWorkflowTaskView;
  outcome?: AiTaskOutcome;
}

// WorkflowExecutionStarted and the first WorkflowTaskScheduled: a longer history means a worker has
// taken the task's first workflow task, which is where the summary runs.
const HISTORY_BEFORE_ANY_WORKER = 2;

export function toTaskResource(view: TaskWorkflowView): Task {
  const { memo } = view;
  const base = {
    id: view.taskId,
    task_type: memo.task_type,
    ...(memo.model !== undefined ? { model: memo.model } : {}),
    ...(memo.priority !== undefined ? { priority: memo.priority } : {}),
    ...(memo.batch_id !== undefined ? { batch_id: memo.batch_id } : {}),
    ...(memo.item_key !== undefined ? { item_key: memo.item_key } : {}),
    created_at: memo.created_at,
    ...(memo.deadline !== undefined ? { deadline: memo.deadline } : {}),
    ...(memo.progress !== undefined ? { progress: memo.progress } : {}),
  };
  if (view.status === 'RUNNING') {
    return { ...base, status: runningStatus(view), updated_at: lastWorkerStart(view) ?? view.memo.created_at, expires_at: null };
  }
  const closedAt = view.closedAt ?? new Date(view.memo.created_at);
  const times = { updated_at: closedAt.toISOString(), expires_at: expiresAt(closedAt, view.retentionMs) };
  const outcome = view.outcome ?? abnormalOutcome(view.status);
  const usage = outcome.usage ? { usage: outcome.usage } : {};
  return outcome.status === 'succeeded'
    ? { ...base, status: 'succeeded', ...times, output: outcome.output, ...usage }
    : { ...base, status: 'failed', ...times, error: outcome.error, ...usage };
}

/**
 * queued until a worker takes the task's first workflow task; running from then on, through
 * retries of that workflow task and up to the close, so a poller never sees it go back.
 */
function runningStatus(view: TaskWorkflowView): PendingTask['status'] {
  const workflowTask = view.pendingWorkflowTask;
  const taken = view.historyLength > HISTORY_BEFORE_ANY_WORKER || workflowTask?.started === true || (workflowTask?.attempt ?? 1) > 1;
  return taken ? 'running' : 'queued';
}

function lastWorkerStart(view: TaskWorkflowView): string | undefined {
  const times = [...view.pendingActivities.map((activity) => activity.lastStartedAt), view.pendingWorkflowTask?.startedAt].flatMap((time) =>
    time ? [time.getTime()] : [],
  );
  return times.length > 0 ? new Date(Math.max(...times)).toISOString() : undefined;
}

/** A workflow that closed without returning an outcome: cancelled, terminated by an operator or timed out. */
function abnormalOutcome(status: WorkflowStatusName): AiTaskOutcome {
  switch (status) {
    case 'CANCELLED':
    case 'TERMINATED':
      return { status: 'failed', error: TASK_CANCELED_ERROR };
    case 'TIMED_OUT':
      return { status: 'failed', error: TASK_TIMED_OUT_ERROR };
    default:
      return { status: 'failed', error: TASK_INTERNAL_ERROR };
  }
}

import type { AiTaskMemo, AiTaskOutcome, TaskError, TaskStatus } from '../../workflows/shared';

/** The task as a client sees it (spec §2.1 plus DESIGN §3's timestamps). */
export interface TaskResource {
  id: string;
  task_type: string;
  status: TaskStatus;
  created_at: string;
  updated_at: string;
  output?: { summary: string };
  error?: TaskError;
}

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

/** What the API knows of a task workflow from describe() (plus its result once closed); no worker needed. */
export interface TaskWorkflowView {
  taskId: string;
  memo: AiTaskMemo;
  status: WorkflowStatusName;
  historyLength: number;
  closedAt?: Date;
  pendingActivities: PendingActivityView[];
  outcome?: AiTaskOutcome;
}

// With no activity pending, a history longer than this means the activity has already closed
// (start, workflow task scheduled/started/completed, activity scheduled/started/closed = 7 events);
// a shorter one is a workflow whose first workflow task has not completed yet, even after a retry of it.
const MAX_HISTORY_BEFORE_ACTIVITY_CLOSED = 6;

export function toTaskResource(view: TaskWorkflowView): TaskResource {
  const base = { id: view.taskId, task_type: view.memo.task_type, created_at: view.memo.created_at };
  if (view.status === 'RUNNING') {
    return { ...base, status: runningStatus(view), updated_at: lastActivityStart(view) ?? view.memo.created_at };
  }
  const updated_at = (view.closedAt ?? new Date(view.memo.created_at)).toISOString();
  const outcome = view.outcome ?? abnormalOutcome(view.status);
  return outcome.status === 'succeeded'
    ? { ...base, status: 'succeeded', updated_at, output: outcome.output }
    : { ...base, status: 'failed', updated_at, error: outcome.error };
}

/**
 * queued until a worker picks the work up; running from then on, including retries and the
 * moment between the activity finishing and the workflow closing, so a poller never sees it go back.
 */
function runningStatus(view: TaskWorkflowView): TaskStatus {
  if (view.pendingActivities.some((activity) => activity.started || activity.attempt > 1)) return 'running';
  if (view.pendingActivities.length > 0) return 'queued';
  return view.historyLength > MAX_HISTORY_BEFORE_ACTIVITY_CLOSED ? 'running' : 'queued';
}

function lastActivityStart(view: TaskWorkflowView): string | undefined {
  const times = view.pendingActivities.flatMap((activity) => (activity.lastStartedAt ? [activity.lastStartedAt.getTime()] : []));
  return times.length > 0 ? new Date(Math.max(...times)).toISOString() : undefined;
}

/** A workflow that closed without returning an outcome: cancelled, terminated by an operator or timed out. */
function abnormalOutcome(status: WorkflowStatusName): AiTaskOutcome {
  switch (status) {
    case 'CANCELLED':
    case 'TERMINATED':
      return { status: 'failed', error: { code: 'CANCELED', message: 'The task was canceled' } };
    case 'TIMED_OUT':
      return { status: 'failed', error: { code: 'TIMED_OUT', message: 'The task did not finish in time' } };
    default:
      return { status: 'failed', error: { code: 'INTERNAL', message: 'The task failed because of an internal error' } };
  }
}

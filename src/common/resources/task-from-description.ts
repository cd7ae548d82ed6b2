import type { WorkflowExecutionDescription } from '@temporalio/client';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import type { AiTaskMemo, AiTaskOutcome } from '../../contract';
import { toTaskResource, type WorkflowStatusName } from './task-resource';
import type { Task } from '../../contract/wire';

const ACTIVITY_STARTED = temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED;
const WORKFLOW_TASK_STARTED = temporal.api.enums.v1.PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_STARTED;

export interface TaskLookup {
  resource: Task;
  memo: AiTaskMemo;
}

/**
 * The task as GET shows it, from its workflow's describe(). The outcome comes from the memo the
 * workflow writes as it closes; only workflows older than that patch need `fetchResult`.
 */
export async function taskFromDescription(
  taskId: string,
  description: WorkflowExecutionDescription,
  fetchResult: () => Promise<AiTaskOutcome>,
  retentionMs: number,
): Promise<TaskLookup> {
  const status = description.status.name as WorkflowStatusName;
  const memo = description.memo as unknown as AiTaskMemo;
  const outcome = status === 'COMPLETED' ? (memo.outcome ?? (await fetchResult())) : undefined;
  const workflowTask = description.raw.pendingWorkflowTask;
  const resource = toTaskResource({
    taskId,
    memo,
    status,
    historyLength: description.historyLength,
    closedAt: description.closeTime,
    retentionMs,
    outcome,
    pendingActivities: (description.raw.pendingActivities ?? []).map((activity) => ({
      started: activity.state === ACTIVITY_STARTED,
      attempt: activity.attempt ?? 1,
      lastStartedAt: toDate(optionalTsToMs(activity.lastStartedTime)),
    })),
    pendingWorkflowTask: workflowTask
      ? {
          started: workflowTask.state === WORKFLOW_TASK_STARTED,
          attempt: workflowTask.attempt ?? 1,
          startedAt: toDate(optionalTsToMs(workflowTask.startedTime)),
        }
      : undefined,
  });
  return { resource, memo };
}

function toDate(ms: number | undefined): Date | undefined {
  return ms === undefined ? undefined : new Date(ms);
}

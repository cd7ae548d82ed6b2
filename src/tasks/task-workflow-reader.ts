import { Injectable } from '@nestjs/common';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { LRUCache } from 'lru-cache';
import type { KeyEnvironment } from '../keys/api-key';
import { TemporalClients } from '../temporal/temporal-clients';
import type { AiTaskMemo, AiTaskOutcome } from '../../workflows/shared';
import { toTaskResource, type TaskResource, type WorkflowStatusName } from './task-resource';
import { taskWorkflowId } from './task-ids';

const STARTED = temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED;

export interface TaskLookup {
  resource: TaskResource;
  memo: AiTaskMemo;
}

/**
 * Reads a task from its workflow with describe(), which the server answers without any worker.
 * A closed workflow never changes again, so its answer is cached.
 */
@Injectable()
export class TaskWorkflowReader {
  private readonly closed = new LRUCache<string, TaskLookup>({ max: 50_000 });

  constructor(private readonly temporal: TemporalClients) {}

  async read(environment: KeyEnvironment, organizationId: string, taskId: string): Promise<TaskLookup | undefined> {
    const workflowId = taskWorkflowId(organizationId, taskId);
    const cacheKey = `${environment}/${workflowId}`;
    const cached = this.closed.get(cacheKey);
    if (cached) return cached;
    const description = await this.temporal.describe(environment, workflowId);
    if (!description) return undefined;
    const status = description.status.name as WorkflowStatusName;
    const memo = description.memo as unknown as AiTaskMemo;
    const outcome = status === 'COMPLETED' ? (memo.outcome ?? (await this.temporal.withDeadline(() => this.temporal.workflows(environment).getHandle(workflowId).result() as Promise<AiTaskOutcome>))) : undefined;
    const resource = toTaskResource({
      taskId,
      memo,
      status,
      historyLength: description.historyLength,
      closedAt: description.closeTime,
      outcome,
      pendingActivities: (description.raw.pendingActivities ?? []).map((activity) => ({
        started: activity.state === STARTED,
        attempt: activity.attempt ?? 1,
        lastStartedAt: toDate(optionalTsToMs(activity.lastStartedTime)),
      })),
    });
    const lookup = { resource, memo };
    if (status !== 'RUNNING') this.closed.set(cacheKey, lookup);
    return lookup;
  }
}

function toDate(ms: number | undefined): Date | undefined {
  return ms === undefined ? undefined : new Date(ms);
}

import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { KeyEnvironment } from '../../common/keys/api-key';
import { TemporalClients } from '../platform/temporal/temporal-clients';
import { taskWorkflowId, type AiTaskMemo, type AiTaskOutcome } from '../../contract';
import { taskFromDescription, type TaskLookup } from '../../common/resources/task-from-description';
import { toTaskResource } from '../../common/resources/task-resource';
import type { Task } from '../../contract/wire';

/** The task and the run it was read from: the current run of its workflow id. */
export interface TaskRead extends TaskLookup {
  runId: string;
}

/**
 * How long a closed task's answer is reused. A closed run never changes, but an operator's reset
 * can replace it with a new run at any time; this bounds how long GET and lists keep showing the
 * replaced one (docs/operator-actions.md).
 */
export const CLOSED_READ_TTL_MS = 2_000;

/**
 * Reads a task from its workflow with describe(), which the server answers without any worker.
 * A closed task's answer is cached briefly. The run of each task read or created here is
 * remembered, so polls describe that run (cheaper for the server: docs/benchmarks.md, "What limits each figure").
 */
@Injectable()
export class TaskWorkflowReader {
  private readonly closed = new LRUCache<string, TaskRead>({ max: 50_000, ttl: CLOSED_READ_TTL_MS });
  private readonly runs = new LRUCache<string, string>({ max: 50_000 });

  constructor(private readonly temporal: TemporalClients) {}

  /** The run a create just started, so the task's first poll already describes it by run. */
  rememberRun(environment: KeyEnvironment, organizationId: string, taskId: string, runId: string): void {
    this.runs.set(cacheKeyOf(environment, taskWorkflowId(organizationId, taskId)), runId);
  }

  /**
   * The task whose run just completed, from its close event and the memo its create wrote, with no
   * describe(): only for a task whose workflow writes nothing to its memo but the outcome it also
   * returns (see CreatedTask.closingMemo), so this is exactly what a read would find. Kept as a read is.
   */
  completedFromClose(environment: KeyEnvironment, organizationId: string, taskId: string, read: { runId: string; memo: AiTaskMemo; closedAt: Date; outcome: AiTaskOutcome }): Task {
    const { runId, closedAt, outcome } = read;
    const memo: AiTaskMemo = { ...read.memo, outcome };
    const resource = toTaskResource({ taskId, memo, status: 'COMPLETED', historyLength: 0, closedAt, retentionMs: this.temporal.retentionMs, outcome, pendingActivities: [] });
    this.keepClosed(cacheKeyOf(environment, taskWorkflowId(organizationId, taskId)), { resource, memo, runId });
    return resource;
  }

  /** After an erasure: the next read asks Temporal. */
  forget(environment: KeyEnvironment, organizationId: string, taskId: string): void {
    const cacheKey = cacheKeyOf(environment, taskWorkflowId(organizationId, taskId));
    this.closed.delete(cacheKey);
    this.runs.delete(cacheKey);
  }

  async read(environment: KeyEnvironment, organizationId: string, taskId: string): Promise<TaskRead | undefined> {
    const workflowId = taskWorkflowId(organizationId, taskId);
    const cacheKey = cacheKeyOf(environment, workflowId);
    const cached = this.closed.get(cacheKey);
    if (cached) return cached;
    const description = await this.describeTaskRun(environment, workflowId, this.runs.get(cacheKey));
    if (!description) return undefined;
    const lookup: TaskRead = {
      ...(await taskFromDescription(taskId, description, () => this.temporal.resultOf<AiTaskOutcome>(environment, workflowId, description.runId), this.temporal.retentionMs)),
      runId: description.runId,
    };
    if (description.status.name === 'RUNNING') {
      this.runs.set(cacheKey, description.runId);
    } else {
      this.keepClosed(cacheKey, lookup);
    }
    return lookup;
  }

  /** A closed task's read, answered from the cache until it expires; its run is no longer needed. */
  private keepClosed(cacheKey: string, read: TaskRead): void {
    this.closed.set(cacheKey, read);
    this.runs.delete(cacheKey);
  }

  /**
   * The remembered run, when there is one. A task's run only ever runs or completes; a run that ended
   * any other way may have been replaced (an operator's reset starts a new run), so the task is then
   * whatever the current run is.
   */
  private async describeTaskRun(environment: KeyEnvironment, workflowId: string, runId: string | undefined) {
    const description = await this.temporal.describe(environment, workflowId, runId);
    const status = description?.status.name;
    if (runId === undefined || status === 'RUNNING' || status === 'COMPLETED') return description;
    return this.temporal.describe(environment, workflowId);
  }
}

function cacheKeyOf(environment: KeyEnvironment, workflowId: string): string {
  return `${environment}/${workflowId}`;
}

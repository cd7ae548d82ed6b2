import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../common/config/app-config';
import { ApiError } from '../platform/http/api-error';
import type { Caller } from '../platform/keys/key-authenticator';
import { ApiMetrics } from '../platform/metrics/api-metrics';
import { TemporalClients } from '../platform/temporal/temporal-clients';
import { startOnce, type OnceStartedKind } from '../platform/temporal/start-once';
import { requestHash } from '../../common/request-hash';
import type { aiTaskWorkflow } from '../../../workflows';
import {
  AI_TASK_WORKFLOW_TYPE,
  BATCH_SEARCH_ATTRIBUTE,
  TASK_ERROR_CODES,
  TASK_STATUSES,
  outcomeEventId,
  taskOutcomeName,
  taskWorkflowId,
  type AiTaskMemo,
  type AiTaskOutcome,
  type TaskStatus,
} from '../../contract';
import { WorkflowEraser } from '../platform/erasure/workflow-eraser';
import { parseCreateTaskRequest } from './create-task.request';
import { ListCursors } from '../platform/listing/list-cursor';
import { listResources } from '../platform/listing/list-resources';
import type { ListPage } from '../../contract/wire/listing';
import { parseListRequest } from '../platform/listing/list-request';
import { taskStatusClauses } from './task-status-clauses';
import { equals } from '../../common/visibility/visibility-query';
import { isTaskId, newTaskId, taskIdForIdempotencyKey, taskIdFromWorkflowId } from '../../common/ids/task-ids';
import { toTaskResource } from '../../common/resources/task-resource';
import { TaskWorkflowReader } from './task-workflow-reader';
import { aiTaskStart } from '../../common/tasks/ai-task-start';
import { PreferWaits, type HeldAnswer } from '../platform/waits/prefer-waits';
import type { WatchedState } from '../platform/waits/workflow-state-wait';
import type { Task } from '../../contract/wire';

export interface CreatedTask {
  task: Task;
  replayed: boolean;
  /** The run this create started; absent on a replay. */
  runId?: string;
  /**
   * The memo the task will close with but for its outcome, when its workflow writes nothing else
   * there (a task on the built-in model has no steps to show progress of): a held create then
   * answers from the run's close event without reading the task back.
   */
  closingMemo?: AiTaskMemo;
}

const TASKS: OnceStartedKind = {
  noun: 'task',
  workflowType: AI_TASK_WORKFLOW_TYPE,
  newId: newTaskId,
  idForIdempotencyKey: taskIdForIdempotencyKey,
  workflowId: taskWorkflowId,
};

const FINAL_STATUSES: ReadonlySet<string> = new Set(['succeeded', 'failed']);

export function isFinal(task: Pick<Task, 'status'>): boolean {
  return FINAL_STATUSES.has(task.status);
}

// A change of status or of progress ends a GET's wait.
const TASK_CHANGES: WatchedState<Task> = { stateOf: (task) => JSON.stringify([task.status, task.progress]), isFinal };

@Injectable()
export class TasksService {
  constructor(
    private readonly temporal: TemporalClients,
    private readonly reader: TaskWorkflowReader,
    private readonly cursors: ListCursors,
    private readonly config: AppConfig,
    private readonly metrics: ApiMetrics,
    private readonly eraser: WorkflowEraser,
    private readonly waits: PreferWaits,
  ) {}

  async create(caller: Caller, body: unknown, idempotencyKey: string | undefined, cancelAfter?: string): Promise<CreatedTask> {
    const now = new Date();
    const { request, model, priority, deadline } = parseCreateTaskRequest(body, this.config.values.MAX_TEXT_BYTES, this.config.models, cancelAfter, now);
    const start = aiTaskStart({
      taskId: '',
      organizationId: caller.organizationId,
      taskType: request.task_type,
      input: request.input,
      model,
      priority,
      deadline,
      createdAt: now,
      requestHash: requestHash(request),
    });
    const { memo } = start;
    const started = await startOnce<typeof aiTaskWorkflow, Task>(this.temporal, TASKS, {
      caller,
      idempotencyKey,
      memo,
      priority,
      options: (taskId) => ({
        args: [{ ...start.args[0], taskId }],
        typedSearchAttributes: start.typedSearchAttributes,
        ...(start.workflowExecutionTimeout === undefined ? {} : { workflowExecutionTimeout: start.workflowExecutionTimeout }),
      }),
      readExisting: (taskId) => this.reader.read(caller.environment, caller.organizationId, taskId),
    });
    if (started.replayed) return { task: started.resource, replayed: true };
    this.reader.rememberRun(caller.environment, caller.organizationId, started.id, started.runId);
    this.metrics.tasksCreated.inc({ task_type: request.task_type });
    // The memo as GET shows it before any worker took the task: queued, with the create's fields.
    const task = toTaskResource({ taskId: started.id, memo, status: 'RUNNING', historyLength: 0, retentionMs: this.temporal.retentionMs, pendingActivities: [] });
    return { task, replayed: false, runId: started.runId, ...(model.kind === 'extractive' ? { closingMemo: memo } : {}) };
  }

  /** The caller's tasks, or one batch's (unfinished first, then the latest finished); queued/running are told apart per item. */
  list(caller: Caller, query: unknown, batchId?: string): Promise<ListPage<Task>> {
    const request = parseListRequest<TaskStatus>(query, TASK_STATUSES);
    return listResources(this.temporal, this.cursors, caller, request, {
      workflowType: AI_TASK_WORKFLOW_TYPE,
      clauses: batchId === undefined ? [] : [equals(BATCH_SEARCH_ATTRIBUTE.name, batchId)],
      statusClauses: taskStatusClauses,
      read: async (workflowId) => {
        const taskId = taskIdFromWorkflowId(workflowId);
        return taskId ? this.reader.read(caller.environment, caller.organizationId, taskId) : undefined;
      },
    });
  }

  async get(caller: Caller, taskId: string): Promise<Task> {
    return (await this.find(caller, taskId)).resource;
  }

  /**
   * A create's `Prefer: wait`: up to `seconds` for the task to close, then the task as it is. The
   * wait is a long poll on the run's close event, bounded by a gRPC deadline, so it holds no worker.
   * A task that completed with a memo known at create is answered from that event; any other is read.
   */
  waitForFinal(caller: Caller, created: CreatedTask, seconds: number | undefined): Promise<HeldAnswer<Task>> {
    const { task, runId, closingMemo } = created;
    const workflowId = taskWorkflowId(caller.organizationId, task.id);
    return this.waits.hold<Task>(caller, seconds, { current: task, key: workflowId, isFinal }, async (waitSeconds) => {
      const close = await this.temporal.awaitClose(caller.environment, workflowId, runId, waitSeconds * 1000);
      if (close?.completed && runId !== undefined && closingMemo !== undefined) {
        return this.reader.completedFromClose(caller.environment, caller.organizationId, task.id, { runId, memo: closingMemo, closedAt: close.closedAt, outcome: close.result as AiTaskOutcome });
      }
      return this.get(caller, task.id);
    });
  }

  /** A GET's `Prefer: wait`: the task once its status or progress differs from now, it is final, or `seconds` pass. */
  getWhenChanged(caller: Caller, taskId: string, seconds: number | undefined): Promise<HeldAnswer<Task>> {
    return this.waits.untilChanged(caller, seconds, taskWorkflowId(caller.organizationId, taskId), () => this.find(caller, taskId), TASK_CHANGES);
  }

  /**
   * Requests cancellation; the workflow closes the task as failed with CANCELED. Repeating it is
   * harmless, and a task already canceled answers as it is; any other final task is a conflict.
   */
  async cancel(caller: Caller, taskId: string): Promise<Task> {
    const { resource } = await this.find(caller, taskId);
    if (resource.status === 'failed' && resource.error?.code === 'CANCELED') return resource;
    if (isFinal(resource)) {
      throw new ApiError(409, 'TASK_ALREADY_FINAL', `Task ${taskId} is already ${resource.status} and cannot be canceled`);
    }
    await this.temporal.requestCancel(caller.environment, taskWorkflowId(caller.organizationId, taskId));
    return resource;
  }

  /** Erases the task (WorkflowEraser): whether it is gone yet; an id the caller has no task by is 404. */
  async erase(caller: Caller, taskId: string): Promise<boolean> {
    if (!isTaskId(taskId)) throw ApiError.notFound(`Task ${taskId}`);
    const outcomes = ['succeeded', ...TASK_ERROR_CODES.map((code) => taskOutcomeName({ status: 'failed', error: { code, message: '' } }))];
    const erasure = await this.eraser.erase({
      environment: caller.environment,
      organizationId: caller.organizationId,
      workflowId: taskWorkflowId(caller.organizationId, taskId),
      eventIds: outcomes.map((outcome) => outcomeEventId(taskId, outcome)),
    });
    if (erasure === 'unknown') throw ApiError.notFound(`Task ${taskId}`);
    this.reader.forget(caller.environment, caller.organizationId, taskId);
    return erasure === 'erased';
  }

  private async find(caller: Caller, taskId: string) {
    const found = isTaskId(taskId) ? await this.reader.read(caller.environment, caller.organizationId, taskId) : undefined;
    if (!found) throw ApiError.notFound(`Task ${taskId}`);
    return found;
  }
}

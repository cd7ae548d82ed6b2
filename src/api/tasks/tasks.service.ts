import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { isTemporalUnavailable } from '../temporal/temporal-errors';
import { AppConfig } from '../../common/config/app-config';
import { ApiError } from '../http/api-error';
import type { Caller } from '../keys/key-authenticator';
import { ApiMetrics } from '../metrics/api-metrics';
import { TemporalClients } from '../temporal/temporal-clients';
import type { aiTaskWorkflow } from '../../../workflows';
import { AI_TASK_WORKFLOW_TYPE, ORGANIZATION_SEARCH_ATTRIBUTE, TASK_TYPE_SEARCH_ATTRIBUTE, taskWorkflowId, type AiTaskMemo, type TaskStatus } from '../../contract';
import { parseCreateTaskRequest } from './create-task.request';
import { listResources, type ListPage } from '../listing/list-resources';
import { parseListRequest } from '../listing/list-request';
import { taskStatusClauses } from './task-status-clauses';
import { isTaskId, newTaskId, taskIdForIdempotencyKey, taskIdFromWorkflowId } from '../../common/ids/task-ids';
import type { TaskResource } from '../../common/resources/task-resource';
import { TaskWorkflowReader } from './task-workflow-reader';

export interface CreatedTask {
  task: TaskResource;
  replayed: boolean;
}

const FINAL_STATUSES: ReadonlySet<string> = new Set(['succeeded', 'failed']);

export function isFinal(task: Pick<TaskResource, 'status'>): boolean {
  return FINAL_STATUSES.has(task.status);
}

@Injectable()
export class TasksService {
  constructor(
    private readonly temporal: TemporalClients,
    private readonly reader: TaskWorkflowReader,
    private readonly config: AppConfig,
    private readonly metrics: ApiMetrics,
  ) {}

  async create(caller: Caller, body: unknown, idempotencyKey: string | undefined): Promise<CreatedTask> {
    const request = parseCreateTaskRequest(body, this.config.values.MAX_TEXT_BYTES);
    const taskId = idempotencyKey ? taskIdForIdempotencyKey(caller.organizationId, idempotencyKey) : newTaskId();
    const memo: AiTaskMemo = {
      created_at: new Date().toISOString(),
      task_type: request.task_type,
      request_hash: createHash('sha256').update(JSON.stringify(request)).digest('hex'),
    };
    try {
      const handle = await this.temporal.withDeadline(() =>
        this.temporal.workflows(caller.environment).start<typeof aiTaskWorkflow>(AI_TASK_WORKFLOW_TYPE, {
          taskQueue: this.temporal.taskQueue,
          workflowId: taskWorkflowId(caller.organizationId, taskId),
          // Rejecting a duplicate id even after the first run closed is what makes a retry with the
          // same Idempotency-Key return the first task for as long as the namespace retains it.
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          args: [{ taskId, organizationId: caller.organizationId, taskType: request.task_type, input: request.input }],
          memo: { ...memo },
          typedSearchAttributes: [
            { key: ORGANIZATION_SEARCH_ATTRIBUTE, value: caller.organizationId },
            { key: TASK_TYPE_SEARCH_ATTRIBUTE, value: request.task_type },
          ],
        }),
      );
      this.reader.rememberRun(caller.environment, caller.organizationId, taskId, handle.firstExecutionRunId);
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) return this.replay(caller, taskId, memo.request_hash);
      throw error;
    }
    this.metrics.tasksCreated.inc({ task_type: request.task_type });
    const task: TaskResource = { id: taskId, task_type: memo.task_type, status: 'queued', created_at: memo.created_at, updated_at: memo.created_at };
    return { task, replayed: false };
  }

  /** The caller's tasks (unfinished first, then the latest finished); queued/running are told apart per item. */
  list(caller: Caller, query: unknown): Promise<ListPage<TaskResource>> {
    const request = parseListRequest<TaskStatus>(query, ['queued', 'running', 'succeeded', 'failed']);
    return listResources(this.temporal, caller, request, {
      workflowType: AI_TASK_WORKFLOW_TYPE,
      statusClauses: taskStatusClauses,
      read: async (workflowId) => {
        const taskId = taskIdFromWorkflowId(workflowId);
        return taskId ? this.reader.read(caller.environment, caller.organizationId, taskId) : undefined;
      },
    });
  }

  async get(caller: Caller, taskId: string): Promise<TaskResource> {
    return (await this.find(caller, taskId)).resource;
  }

  /**
   * Waits up to `seconds` for the task to close (Prefer: wait) and returns it as it then is. The
   * wait is a long poll on the workflow's result, bounded by a gRPC deadline, so it holds no worker.
   */
  async waitForFinal(caller: Caller, task: TaskResource, seconds: number): Promise<TaskResource> {
    if (isFinal(task) || seconds === 0) return task;
    const handle = this.temporal.workflows(caller.environment).getHandle(taskWorkflowId(caller.organizationId, task.id));
    try {
      await this.temporal.withDeadline(() => handle.result(), seconds * 1000);
    } catch (error) {
      if (!isTemporalUnavailable(error)) throw error;
    }
    return this.get(caller, task.id);
  }

  /**
   * Requests cancellation; the workflow closes the task as failed with CANCELED. Repeating it is
   * harmless, and a task already canceled answers as it is; any other final task is a conflict.
   */
  async cancel(caller: Caller, taskId: string): Promise<TaskResource> {
    const { resource } = await this.find(caller, taskId);
    if (resource.status === 'failed' && resource.error?.code === 'CANCELED') return resource;
    if (isFinal(resource)) {
      throw new ApiError(409, 'TASK_ALREADY_FINAL', `Task ${taskId} is already ${resource.status} and cannot be canceled`);
    }
    const handle = this.temporal.workflows(caller.environment).getHandle(taskWorkflowId(caller.organizationId, taskId));
    await this.temporal.withDeadline(() => handle.cancel());
    return resource;
  }

  private async find(caller: Caller, taskId: string) {
    const found = isTaskId(taskId) ? await this.reader.read(caller.environment, caller.organizationId, taskId) : undefined;
    if (!found) throw ApiError.notFound(`Task ${taskId}`);
    return found;
  }

  private async replay(caller: Caller, taskId: string, requestHash: string): Promise<CreatedTask> {
    const existing = await this.reader.read(caller.environment, caller.organizationId, taskId);
    if (!existing) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The task is being created; retry shortly', { 'retry-after': '1' });
    if (existing.memo.request_hash !== requestHash) {
      throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request body');
    }
    return { task: existing.resource, replayed: true };
  }
}

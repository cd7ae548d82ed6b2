import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { KeyEnvironment } from '../keys/api-key';
import { TemporalClients } from '../temporal/temporal-clients';
import type { AiTaskOutcome } from '../../workflows/shared';
import { taskFromDescription, type TaskLookup } from './task-from-description';
import { taskWorkflowId } from './task-ids';

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
    const lookup = await taskFromDescription(taskId, description, () =>
      this.temporal.withDeadline(() => this.temporal.workflows(environment).getHandle(workflowId).result() as Promise<AiTaskOutcome>),
    );
    if (description.status.name !== 'RUNNING') this.closed.set(cacheKey, lookup);
    return lookup;
  }
}

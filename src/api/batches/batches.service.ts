import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../common/config/app-config';
import { batchIdForIdempotencyKey, isBatchId } from '../../common/ids/batch-ids';
import { newPrefixedId } from '../../common/ids/prefixed-ulid';
import { requestHash } from '../../common/request-hash';
import { toBatchResource } from '../../common/resources/batch-resource';
import type { WorkflowStatusName } from '../../common/resources/task-resource';
import { BatchItemStore } from '../../common/storage/batch-item-store';
import { countBatchTasks } from '../../common/visibility/batch-task-counts';
import type { aiBatchWorkflow } from '../../../workflows';
import { AI_BATCH_WORKFLOW_TYPE, BATCH_ID_PREFIX, ORGANIZATION_SEARCH_ATTRIBUTE, batchWorkflowId, type AiBatchMemo } from '../../contract';
import { ApiError } from '../platform/http/api-error';
import type { Caller } from '../platform/keys/key-authenticator';
import type { ListPage } from '../../contract/wire/listing';
import { startOnce, type OnceStartedKind } from '../platform/temporal/start-once';
import { TemporalClients } from '../platform/temporal/temporal-clients';
import { TasksService } from '../tasks/tasks.service';
import { createHash } from 'node:crypto';
import { parseCreateBatchRequest } from './create-batch.request';
import type { Batch, Task } from '../../contract/wire';

export interface CreatedBatch {
  batch: Batch;
  replayed: boolean;
}

const BATCHES: OnceStartedKind = {
  noun: 'batch',
  workflowType: AI_BATCH_WORKFLOW_TYPE,
  newId: () => newPrefixedId(BATCH_ID_PREFIX),
  idForIdempotencyKey: batchIdForIdempotencyKey,
  workflowId: batchWorkflowId,
};

@Injectable()
export class BatchesService {
  constructor(
    private readonly temporal: TemporalClients,
    private readonly config: AppConfig,
    private readonly tasks: TasksService,
    @Inject(BatchItemStore) private readonly items: BatchItemStore,
  ) {}

  /**
   * Stages the items, then starts the batch's workflow: once it has started the batch is accepted.
   * Without an Idempotency-Key the batch is named by its item keys, so a retried request (same
   * keys) is the same batch whether or not the client sent a key.
   */
  async create(caller: Caller, body: unknown, idempotencyKey: string | undefined, cancelAfter?: string): Promise<CreatedBatch> {
    const now = new Date();
    const parsed = parseCreateBatchRequest(body, this.config.values.MAX_TEXT_BYTES, this.config.models, cancelAfter, now);
    const identity = idempotencyKey ?? itemKeysIdentity(parsed.items.map((item) => item.key));
    const batchId = batchIdForIdempotencyKey(caller.organizationId, identity);
    const memo: AiBatchMemo = {
      created_at: now.toISOString(),
      request_hash: requestHash(parsed.request),
      task_type: parsed.taskType,
      model: parsed.model.name,
      priority: parsed.priority,
      total: parsed.items.length,
      admitted: 0,
    };
    if (parsed.deadline !== undefined) memo.deadline = parsed.deadline;
    const existing = await this.read(caller, batchId);
    // A batch that exists has unstaged what it admitted: staging its items again would leave copies behind.
    if (!existing) {
      const ref = { environment: caller.environment, organizationId: caller.organizationId, batchId };
      await this.items.stage(ref, parsed.items.map((item, index) => ({ index, key: item.key, input: item.input })), now);
    }
    const started = await startOnce<typeof aiBatchWorkflow, Batch>(this.temporal, BATCHES, {
      caller,
      idempotencyKey: identity,
      memo,
      options: (id) => ({
        args: [{ batchId: id, organizationId: caller.organizationId, taskType: parsed.taskType, model: parsed.model, priority: parsed.priority, ...(parsed.deadline === undefined ? {} : { deadline: parsed.deadline }), createdAt: memo.created_at, total: memo.total, pace: this.admissionPace }],
        typedSearchAttributes: [{ key: ORGANIZATION_SEARCH_ATTRIBUTE, value: caller.organizationId }],
      }),
      readExisting: (id) => this.read(caller, id),
    });
    if (started.replayed) return { batch: started.resource, replayed: true };
    return { batch: toBatchResource({ batchId, memo, status: 'RUNNING', retentionMs: this.temporal.retentionMs }), replayed: false };
  }

  async get(caller: Caller, batchId: string): Promise<Batch> {
    return (await this.find(caller, batchId)).resource;
  }

  /** Requests cancellation; the workflow withdraws what it has not admitted and cancels the running tasks. */
  async cancel(caller: Caller, batchId: string): Promise<Batch> {
    const { resource } = await this.find(caller, batchId);
    if (resource.status === 'ended') {
      if (resource.canceled_at !== null) return resource;
      throw new ApiError(409, 'BATCH_ALREADY_ENDED', `Batch ${batchId} has ended and cannot be canceled`);
    }
    await this.temporal.requestCancel(caller.environment, batchWorkflowId(caller.organizationId, batchId));
    return resource;
  }

  async listTasks(caller: Caller, batchId: string, query: unknown): Promise<ListPage<Task>> {
    await this.find(caller, batchId);
    return this.tasks.list(caller, query, batchId);
  }

  /** The organisation's create limit, which its batches' admission keeps to as well. */
  private get admissionPace() {
    return { perMinute: this.config.values.RATE_LIMIT_ORGANISATION_CREATES_PER_MINUTE, burst: this.config.values.RATE_LIMIT_ORGANISATION_CREATES_BURST };
  }

  private async find(caller: Caller, batchId: string) {
    const found = isBatchId(batchId) ? await this.read(caller, batchId) : undefined;
    if (!found) throw ApiError.notFound(`Batch ${batchId}`);
    return found;
  }

  private async read(caller: Caller, batchId: string): Promise<{ resource: Batch; memo: AiBatchMemo } | undefined> {
    const description = await this.temporal.describe(caller.environment, batchWorkflowId(caller.organizationId, batchId));
    if (!description) return undefined;
    const memo = description.memo as unknown as AiBatchMemo;
    const status = description.status.name as WorkflowStatusName;
    const live = memo.outcome ? undefined : await this.temporal.withDeadline(() => countBatchTasks(this.temporal.client(caller.environment), caller.organizationId, batchId));
    return { resource: toBatchResource({ batchId, memo, status, closedAt: description.closeTime, retentionMs: this.temporal.retentionMs, live }), memo };
  }
}

/** What names a batch sent without an Idempotency-Key: its item keys. The NUL keeps it apart from any header's key. */
function itemKeysIdentity(keys: string[]): string {
  return `\0items:${createHash('sha256').update(keys.join('\0')).digest('hex')}`;
}

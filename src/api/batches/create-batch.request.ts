import { ApiError } from '../platform/http/api-error';
import { DEFAULT_BATCH_PRIORITY, MAX_BATCH_ITEMS, type TaskModel, type TaskPriority, type TaskType } from '../../contract';
import { createBatchSchema, type BatchItem, type CreateBatchRequest } from '../../contract/wire/batch';
import type { ModelCatalog } from '../../common/config/model-catalog';
import { checkTextSize, offeredModel, pickDefined, requestError, resolveDeadline } from '../tasks/create-task.request';

export interface ParsedCreateBatch {
  /** Normalised, for the batch's request_hash. */
  request: CreateBatchRequest;
  taskType: TaskType;
  model: TaskModel;
  priority: TaskPriority;
  deadline?: string;
  items: BatchItem[];
}

/** Validates a batch create (and its Cancel-After header) at the edge, as a single create is validated. */
export function parseCreateBatchRequest(body: unknown, maxTextBytes: number, models: ModelCatalog, cancelAfter?: string, now: Date = new Date()): ParsedCreateBatch {
  const items = typeof body === 'object' && body !== null ? (body as { items?: unknown }).items : undefined;
  if (Array.isArray(items) && items.length > MAX_BATCH_ITEMS) {
    throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `A batch holds at most ${MAX_BATCH_ITEMS} items; this one has ${items.length}`);
  }
  const parsed = createBatchSchema.safeParse(body);
  if (!parsed.success) throw requestError(parsed.error, body);
  const { model: named, priority, deadline } = parsed.data;
  const seen = new Set<string>();
  const parsedItems = parsed.data.items.map((item, index) => {
    if (seen.has(item.key)) throw ApiError.invalidRequest(`items.${index}.key: repeats "${item.key}"; keys are unique within a batch`);
    seen.add(item.key);
    checkTextSize(item.input, maxTextBytes, `items[${index}].input.text`);
    return { key: item.key, input: pickDefined(item.input) };
  });
  const model = offeredModel(models, named);
  const request: ParsedCreateBatch['request'] = { task_type: 'summarize', items: parsedItems };
  if (named !== undefined) request.model = named;
  if (priority !== undefined) request.priority = priority;
  if (deadline !== undefined) request.deadline = deadline;
  return { request, taskType: 'summarize', model, priority: priority ?? DEFAULT_BATCH_PRIORITY, deadline: resolveDeadline(deadline, cancelAfter, now), items: parsedItems };
}

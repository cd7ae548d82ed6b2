import { z } from 'zod';
import { BATCH_ID_PATTERN } from '../../common/ids/batch-ids';
import { MAX_BATCH_ITEMS } from '../../contract';
import { listQuerySchema } from '../../contract/wire/listing';
import type { ApiOperation, ParameterDoc } from '../platform/openapi/api-operation';
import { oneResourceOperation } from '../platform/openapi/one-resource-operation';
import { CANCEL_AFTER_HEADER, IDEMPOTENCY_KEY_HEADER, LOCATION_HEADER, RATE_LIMIT_HEADERS, REPLAY_HEADER } from '../platform/openapi/common-parameters';
import { batchResourceSchema, createBatchSchema, listPageSchema, TASK_STATUSES, taskResourceSchema } from '../../contract/wire';

const BATCH = { name: 'Batch', schema: batchResourceSchema };
// Any other value is 404: no batch can have it.
const BATCH_ID: ParameterDoc = {
  name: 'batch_id',
  description: 'The id returned on creation: `batch_` and a ULID.',
  schema: z.string().regex(new RegExp(BATCH_ID_PATTERN)),
  example: 'batch_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0',
};
const CREATED_AT = '2025-06-02T09:15:27.114Z';
const newBatch = {
  id: 'batch_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0',
  task_type: 'summarize',
  model: 'extractive',
  priority: 'low',
  status: 'in_progress',
  counts: { total: 2, admitted: 0, succeeded: 0, failed: 0 },
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
  ended_at: null,
  canceled_at: null,
  expires_at: null,
};

/** The batch routes: BatchesController serves them, the OpenAPI document describes them. */
export const BATCH_ROUTES = {
  create: {
    method: 'post',
    path: '/v1/ai/batches',
    operationId: 'createBatch',
    tag: 'AI tasks',
    summary: 'Create a batch of AI tasks',
    description: `Accepts up to ${MAX_BATCH_ITEMS} items in one request, durably, and drains them server-side: each item becomes a task (its own id, GET, cancel and DELETE as any task's) when the service admits it, at the organisation's fair share of the workers and within the model's limits, so the client meets no 429 per item. The same request again (or the same Idempotency-Key) answers the same batch; its items' task ids come from the batch and the item keys, so no item ever runs twice. Poll GET /v1/ai/batches/{batch_id} (every few seconds) or subscribe to ai_batch.completed.`,
    headers: [IDEMPOTENCY_KEY_HEADER, CANCEL_AFTER_HEADER],
    requestBody: {
      name: 'CreateBatchRequest',
      schema: createBatchSchema,
      example: {
        task_type: 'summarize',
        items: [
          { key: 'doc-0001', input: { text: 'The council approved the transit plan on Tuesday. It adds three bus lines.' } },
          { key: 'doc-0002', input: { text: 'The library extends its opening hours in December. Volunteers will staff the evenings.', max_sentences: 1 } },
        ],
      },
    },
    responses: [{ status: 202, description: 'Accepted: the batch (on an idempotent replay, as it is now).', body: BATCH, example: newBatch, headers: { ...LOCATION_HEADER, ...REPLAY_HEADER, ...RATE_LIMIT_HEADERS } }],
    errors: ['INVALID_REQUEST', 'UNSUPPORTED_TASK_TYPE', 'UNKNOWN_MODEL', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'IDEMPOTENCY_KEY_REUSED', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'ENCRYPTION_REQUIRED'],
  },
  get: oneResourceOperation({
    method: 'get',
    path: '/v1/ai/batches/{batch_id}',
    operationId: 'getBatch',
    tag: 'AI tasks',
    summary: 'Get a batch',
    description: 'The batch with its counts: how many items have become tasks, and how many of those succeeded or failed.',
    id: BATCH_ID,
    answer: { description: 'The batch.', body: BATCH, example: newBatch },
  }),
  cancel: {
    method: 'post',
    path: '/v1/ai/batches/{batch_id}/cancel',
    operationId: 'cancelBatch',
    tag: 'AI tasks',
    summary: 'Cancel a batch',
    description: 'Items not yet admitted never become tasks; running tasks are canceled (they fail CANCELED); finished ones stay as they are. The batch is canceling until its tasks have closed, then ended. Repeating it is harmless. Needs no body.',
    pathParameters: [BATCH_ID],
    responses: [{ status: 202, description: 'Cancellation requested: the batch as it is now.', body: BATCH, example: newBatch }],
    errors: ['NOT_FOUND', 'BATCH_ALREADY_ENDED', 'SERVICE_UNAVAILABLE', 'ENCRYPTION_REQUIRED'],
  },
  tasks: {
    method: 'get',
    path: '/v1/ai/batches/{batch_id}/tasks',
    operationId: 'listBatchTasks',
    tag: 'AI tasks',
    summary: "List a batch's tasks",
    description: "The tasks the batch's items have become so far, as GET /v1/ai/tasks lists tasks (unfinished first), each with its item_key. Follow next_cursor while has_more is true.",
    pathParameters: [BATCH_ID],
    query: listQuerySchema(TASK_STATUSES),
    responses: [{ status: 200, description: 'One page of tasks.', body: { name: 'BatchTaskList', schema: listPageSchema(taskResourceSchema) }, example: { data: [], has_more: false, next_cursor: null } }],
    errors: ['NOT_FOUND', 'INVALID_REQUEST', 'SERVICE_UNAVAILABLE', 'ENCRYPTION_REQUIRED'],
  },
} satisfies Record<string, ApiOperation>;

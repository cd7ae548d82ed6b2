import { z } from 'zod';
import { TASK_ID_PATTERN } from '../../common/ids/task-ids';
import { listQuerySchema } from '../../contract/wire/listing';
import type { ApiOperation, ParameterDoc } from '../platform/openapi/api-operation';
import { CANCEL_AFTER_HEADER, ERASE_RESPONSES, IDEMPOTENCY_KEY_HEADER, LOCATION_HEADER, PREFER_WAIT_HEADER, WAIT_ANSWER_HEADERS, RATE_LIMIT_HEADERS, REPLAY_HEADER } from '../platform/openapi/common-parameters';
import { oneResourceOperation } from '../platform/openapi/one-resource-operation';
import { createTaskSchema, listPageSchema, TASK_STATUSES, taskResourceSchema } from '../../contract/wire';

const TASK = { name: 'Task', schema: taskResourceSchema };
// Any other value is 404: no task can have it.
const TASK_ID: ParameterDoc = {
  name: 'task_id',
  description: 'The id returned on creation: `task_` and a ULID.',
  schema: z.string().regex(new RegExp(TASK_ID_PATTERN)),
  example: 'task_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0',
};
const CREATED_AT = '2025-06-02T09:15:27.114Z';

const queuedTask = { id: 'task_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0', task_type: 'summarize', status: 'queued', created_at: CREATED_AT, updated_at: CREATED_AT, expires_at: null };
const succeededTask = {
  ...queuedTask,
  status: 'succeeded',
  updated_at: '2025-06-02T09:15:29.870Z',
  expires_at: '2025-07-02T09:15:29.870Z',
  output: { summary: 'The council approved the transit plan, which adds three bus lines.' },
};

/** The AI task routes: TasksController serves them, the OpenAPI document describes them. */
export const TASK_ROUTES = {
  create: {
    method: 'post',
    path: '/v1/ai/tasks',
    operationId: 'createTask',
    tag: 'AI tasks',
    summary: 'Create an AI task',
    description:
      'Validates the request and starts the task; the work happens asynchronously. Poll GET /v1/ai/tasks/{task_id} (first after 1.5 s, then every 1-2 s) until the status is succeeded or failed.',
    headers: [IDEMPOTENCY_KEY_HEADER, PREFER_WAIT_HEADER, CANCEL_AFTER_HEADER],
    requestBody: {
      name: 'CreateTaskRequest',
      schema: createTaskSchema,
      example: { task_type: 'summarize', input: { text: 'The council approved the transit plan on Tuesday. It adds three bus lines. Critics called the budget too high.', max_sentences: 2 } },
    },
    responses: [
      {
        status: 202,
        description: 'Accepted: the task (queued; on an idempotent replay, as it is now).',
        body: TASK,
        example: queuedTask,
        headers: { ...LOCATION_HEADER, ...REPLAY_HEADER, ...RATE_LIMIT_HEADERS, ...WAIT_ANSWER_HEADERS },
      },
      { status: 200, description: 'With `Prefer: wait=N`: the task finished within the wait.', body: TASK, example: succeededTask, headers: WAIT_ANSWER_HEADERS },
    ],
    errors: ['INVALID_REQUEST', 'UNSUPPORTED_TASK_TYPE', 'UNKNOWN_MODEL', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'IDEMPOTENCY_KEY_REUSED', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'ENCRYPTION_REQUIRED'],
  },
  list: {
    method: 'get',
    path: '/v1/ai/tasks',
    operationId: 'listTasks',
    tag: 'AI tasks',
    summary: 'List AI tasks',
    description: "The caller's tasks in its environment: unfinished first, then the most recently finished. Follow next_cursor while has_more is true.",
    query: listQuerySchema(TASK_STATUSES),
    responses: [{ status: 200, description: 'One page of tasks.', body: { name: 'TaskList', schema: listPageSchema(taskResourceSchema) }, example: { data: [succeededTask], has_more: false, next_cursor: null } }],
    errors: ['INVALID_REQUEST', 'SERVICE_UNAVAILABLE', 'ENCRYPTION_REQUIRED'],
  },
  get: oneResourceOperation({
    method: 'get',
    path: '/v1/ai/tasks/{task_id}',
    operationId: 'getTask',
    tag: 'AI tasks',
    summary: 'Get an AI task',
    description: 'Answers from Temporal even while no worker runs. output.summary is present when succeeded, error.code and error.message when failed.',
    id: TASK_ID,
    answer: { description: 'The task.', body: TASK, example: succeededTask },
    waitsForChange: true,
  }),
  cancel: {
    method: 'post',
    path: '/v1/ai/tasks/{task_id}/cancel',
    operationId: 'cancelTask',
    tag: 'AI tasks',
    summary: 'Cancel an AI task',
    description: 'The task then ends failed with error.code CANCELED. Repeating it is harmless. Needs no body.',
    pathParameters: [TASK_ID],
    responses: [{ status: 202, description: 'Cancellation requested: the task as it is now.', body: TASK, example: { ...queuedTask, status: 'running' } }],
    errors: ['NOT_FOUND', 'TASK_ALREADY_FINAL', 'SERVICE_UNAVAILABLE', 'ENCRYPTION_REQUIRED'],
  },
  erase: {
    method: 'delete',
    path: '/v1/ai/tasks/{task_id}',
    operationId: 'deleteTask',
    tag: 'AI tasks',
    summary: 'Erase an AI task',
    description:
      "Removes the task and its history from Temporal, with its Idempotency-Key, its webhook events, their redeliveries and delivery records, for the caller's organisation and environment only; a queued or running task is canceled first. Then GET answers 404, lists leave it out and no webhook about it is sent. Repeating it answers 204 again within the retention period; an id the caller has no task by (never created, another organisation's or environment's, past retention) is 404 and changes nothing. Counts against the create rate limit.",
    pathParameters: [TASK_ID],
    responses: ERASE_RESPONSES,
    errors: ['NOT_FOUND', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'],
  },
} satisfies Record<string, ApiOperation>;

import { z } from 'zod';
import { multiLineNotBlank } from './text-patterns';
import { MODEL_NAME_PATTERN, TASK_ERROR_CODES, TASK_PRIORITIES, TASK_STATUSES, TASK_TYPES } from './values';

/** What a create and a batch share: the task's type, model, priority and deadline. */
export const taskOptionFields = {
  task_type: z.enum(TASK_TYPES, { error: 'required, a string such as "summarize"' }),
  model: z
    .string({ error: 'must be a string, the name of a model (GET /v1/models)' })
    .regex(new RegExp(MODEL_NAME_PATTERN), 'must be the name of a model (GET /v1/models)')
    .optional()
    .meta({ description: 'The model to run on, one of GET /v1/models; absent, the service\'s default model.', example: 'extractive' }),
  priority: z
    .enum(TASK_PRIORITIES, { error: `must be one of ${TASK_PRIORITIES.join(', ')}` })
    .optional()
    .meta({ description: "Within the organisation's share: a high task is dispatched before the organisation's normal and low ones (its batch work, say); it takes nothing from other organisations. Default normal." }),
  deadline: z.iso
    .datetime({ offset: true, error: 'must be an RFC 3339 date-time' })
    .optional()
    .meta({
      description:
        'RFC 3339: a task not final by then fails with error.code TIMED_OUT (one that has not started calls no model; one already past fails at once). With the Cancel-After header too, the earlier of the two holds. One more than a year ahead sets no deadline.',
      example: '2026-11-26T18:00:00Z',
    }),
};

export const summarizeInputSchema = z
  .object({
    text: z.string({ error: 'required, a string' }).check(multiLineNotBlank('must contain some non-whitespace text')),
    max_sentences: z.number().int().min(1).max(20).optional(),
  }, { error: 'required, an object with a text field' })
  .strict();

export const createTaskSchema = z.object({ ...taskOptionFields, input: summarizeInputSchema }, { error: 'must be a JSON object' }).strict();

export type SummarizeInput = z.output<typeof summarizeInputSchema>;
export type CreateTaskRequest = z.input<typeof createTaskSchema>;

export const taskUsageSchema = z.object({
  model: z.string().meta({ example: 'smollm2' }),
  provider_calls: z.number().int().min(0).meta({ description: "Calls to the model's provider (0 on the built-in model)." }),
  input_tokens: z.number().int().min(0).optional().meta({ description: 'Summed over the calls as the provider reported them; absent when it reported none.' }),
  output_tokens: z.number().int().min(0).optional(),
  input_characters: z.number().int().min(0).meta({ description: 'The length of input.text.' }),
  output_characters: z.number().int().min(0).meta({ description: 'The length of the summary (0 when the task failed).' }),
  cost: z.number().min(0).optional().meta({ description: "From the model's prices (GET /v1/models) when the task finished; absent when the model has none." }),
});

/** The task resource as the API returns it, documented flat: the types below narrow it on `status`. */
export const taskResourceSchema = z.object({
  id: z.string().meta({ description: 'Task id, `task_` and 26 Crockford base32 characters.', example: 'task_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0' }),
  task_type: z.string().meta({ example: 'summarize' }),
  model: z.string().optional().meta({ description: 'The model the task runs on (the default when the create named none). Absent on tasks created before models could be chosen.', example: 'extractive' }),
  priority: z.enum(TASK_PRIORITIES).optional().meta({ description: 'Present when the create asked for high or low.' }),
  batch_id: z.string().optional().meta({ description: "On the task of a batch's item: the batch (GET /v1/ai/batches/{batch_id}).", example: 'batch_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0' }),
  item_key: z.string().optional().meta({ description: "On the task of a batch's item: the item's key as the batch create gave it.", example: 'doc-0001' }),
  status: z.enum(TASK_STATUSES).meta({
    description: '`queued` until a worker starts the work, `running` while it runs (retries included), then `succeeded` or `failed`; never moves backwards.',
  }),
  created_at: z.iso.datetime().meta({ description: 'RFC 3339, UTC.' }),
  updated_at: z.iso.datetime().meta({ description: 'RFC 3339, UTC: when the status last changed.' }),
  deadline: z.iso.datetime().optional().meta({ description: 'RFC 3339, UTC: when the task fails TIMED_OUT if it is not final by then; present when the create set one (deadline or Cancel-After).' }),
  expires_at: z.iso
    .datetime()
    .nullable()
    .meta({ description: 'RFC 3339, UTC: when the finished task, its Idempotency-Key and its webhook deliveries are deleted (the retention period after it finished, 30 days by default); null until it finishes.' }),
  progress: z
    .object({
      completed_steps: z.number().int().min(0),
      total_steps: z.number().int().min(1),
    })
    .optional()
    .meta({
      description:
        'On a remote model, a text is summarised in steps: one model call per part of the text, then calls that combine their summaries. completed_steps only grows and reaches total_steps when the task succeeds. Absent on the built-in model and until a worker has planned the steps.',
    }),
  output: z.object({ summary: z.string() }).optional().meta({ description: 'Present when status is succeeded.' }),
  error: z
    .object({
      code: z.enum(TASK_ERROR_CODES),
      message: z.string(),
    })
    .optional()
    .meta({ description: 'Present when status is failed.' }),
  usage: taskUsageSchema.optional().meta({
    description: 'What the task used: present when it succeeded, and when it failed after calling its model. Absent on tasks created before usage was reported.',
  }),
});

/**
 * What a task used: calls to its model's provider and the tokens the provider reported for them,
 * the characters it read and wrote, and its cost when the model has a price.
 */
export type TaskUsage = z.output<typeof taskUsageSchema>;

type TaskShape = z.output<typeof taskResourceSchema>;
type TaskFields = Omit<TaskShape, 'status' | 'output' | 'error' | 'usage'>;
/** How far a task that runs in steps (on a remote model) has got; completed_steps only grows. */
export type TaskProgress = NonNullable<TaskFields['progress']>;
export type TaskError = NonNullable<TaskShape['error']>;

export type PendingTask = TaskFields & { status: 'queued' | 'running' };
export type SucceededTask = TaskFields & { status: 'succeeded'; output: NonNullable<TaskShape['output']>; usage?: TaskUsage };
/** `usage` is present when the task called its model before it failed. */
export type FailedTask = TaskFields & { status: 'failed'; error: TaskError; usage?: TaskUsage };
/** Narrow on `status` to reach `output` (succeeded) or `error` (failed). */
export type Task = PendingTask | SucceededTask | FailedTask;

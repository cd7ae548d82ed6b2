import { z } from 'zod';
import { TASK_ERROR_CODES, TASK_PRIORITIES, TASK_STATUSES } from '../../contract';
import type { TaskResource } from '../../common/resources/task-resource';
import type { Merged, SameType } from '../platform/openapi/schemas/same-type';

export const taskUsageSchema = z.object({
  model: z.string().meta({ example: 'smollm2' }),
  provider_calls: z.number().int().min(0).meta({ description: "Calls to the model's provider (0 on the built-in model)." }),
  input_tokens: z.number().int().min(0).optional().meta({ description: 'Summed over the calls as the provider reported them; absent when it reported none.' }),
  output_tokens: z.number().int().min(0).optional(),
  input_characters: z.number().int().min(0).meta({ description: 'The length of input.text.' }),
  output_characters: z.number().int().min(0).meta({ description: 'The length of the summary (0 when the task failed).' }),
  cost: z.number().min(0).optional().meta({ description: "From the model's prices (GET /v1/models) when the task finished; absent when the model has none." }),
});

/** The task resource as the API returns it; the check at the end holds it equal to TaskResource. */
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

export const TASK_STATUS_VALUES = TASK_STATUSES;

// The SDK narrows a task on its status; the schema documents output and error as optional fields.
const _taskResourceDocumented: SameType<z.output<typeof taskResourceSchema>, Merged<TaskResource>> = true;

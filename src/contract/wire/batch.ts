import { z } from 'zod';
import { summarizeInputSchema, taskOptionFields } from './task';
import { BATCH_STATUSES, MAX_BATCH_ITEM_KEY_LENGTH, MAX_BATCH_ITEMS, TASK_PRIORITIES } from './values';

// Printable ASCII without spaces: a key shows as it is in logs of the client's own, URLs and JSONL.
const ITEM_KEY_PATTERN = `^[\\x21-\\x7e]{1,${MAX_BATCH_ITEM_KEY_LENGTH}}$`;

const batchItemSchema = z
  .object({
    key: z
      .string({ error: 'required, a string naming the item' })
      .regex(new RegExp(ITEM_KEY_PATTERN), `must be 1-${MAX_BATCH_ITEM_KEY_LENGTH} printable characters without spaces`)
      .meta({ description: "Names the item within the batch (unique in it); its task shows it as item_key, and a retried batch with the same keys makes no new tasks.", example: 'doc-0001' }),
    input: summarizeInputSchema,
  }, { error: 'must be an object with key and input' })
  .strict();

export const createBatchSchema = z
  .object({
    ...taskOptionFields,
    priority: taskOptionFields.priority.meta({ description: "Every item's task's priority within the organisation's share. Default low, so the organisation's own single creates overtake its batch." }),
    items: z
      .array(batchItemSchema, { error: 'required, a list of items' })
      .min(1, 'must hold at least one item')
      .meta({ description: `1 to ${MAX_BATCH_ITEMS} items; more is 413.` }),
  }, { error: 'must be a JSON object' })
  .strict();

/** One item of a batch: its task shows `key` as item_key. */
export type BatchItem = z.output<typeof batchItemSchema>;
export type CreateBatchRequest = z.input<typeof createBatchSchema>;

/** The batch resource as the API returns it. */
export const batchResourceSchema = z.object({
  id: z.string().meta({ description: 'Batch id, `batch_` and 26 Crockford base32 characters.', example: 'batch_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0' }),
  task_type: z.string().meta({ example: 'summarize' }),
  model: z.string().meta({ description: "The model every item's task runs on.", example: 'extractive' }),
  priority: z.enum(TASK_PRIORITIES).meta({ description: "Every item's task's priority within the organisation's share (default low)." }),
  deadline: z.iso.datetime().optional().meta({ description: "RFC 3339, UTC: every item's task not final by then fails TIMED_OUT; present when the create set one." }),
  status: z.enum(BATCH_STATUSES).meta({
    description: '`in_progress` while items wait to become tasks or their tasks run; `canceling` after a cancel until its running tasks have closed; `ended` once every admitted item\'s task is final.',
  }),
  counts: z
    .object({
      total: z.number().int().min(1).meta({ description: 'Items the batch was created with.' }),
      admitted: z.number().int().min(0).meta({ description: 'Items that have become tasks; the others wait their turn (or, after a cancel, never run).' }),
      succeeded: z.number().int().min(0),
      failed: z.number().int().min(0).meta({ description: 'Tasks that failed, canceled and timed-out ones included.' }),
    })
    .meta({ description: 'Progress: succeeded + failed reaches admitted when the batch ends (less only by tasks erased meanwhile).' }),
  created_at: z.iso.datetime().meta({ description: "RFC 3339, UTC; every item's task shows it as its created_at too." }),
  updated_at: z.iso.datetime(),
  ended_at: z.iso.datetime().nullable().meta({ description: 'When the last task became final; null until then.' }),
  canceled_at: z.iso.datetime().nullable().meta({ description: 'When the batch took a cancel; null unless canceled.' }),
  expires_at: z.iso.datetime().nullable().meta({ description: 'When the ended batch is deleted (the retention period after it ended); null until then. Its tasks expire on their own.' }),
});

export type Batch = z.output<typeof batchResourceSchema>;
/** Progress is (succeeded + failed) / total; succeeded + failed reaches admitted when the batch ends. */
export type BatchCounts = Batch['counts'];

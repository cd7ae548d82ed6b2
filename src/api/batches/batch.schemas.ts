import { z } from 'zod';
import { TASK_PRIORITIES } from '../../contract';
import { BATCH_STATUSES, type BatchResource } from '../../common/resources/batch-resource';
import type { SameType } from '../platform/openapi/schemas/same-type';

/** The batch resource as the API returns it; the check at the end holds it equal to BatchResource. */
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

const _batchResourceDocumented: SameType<z.output<typeof batchResourceSchema>, BatchResource> = true;

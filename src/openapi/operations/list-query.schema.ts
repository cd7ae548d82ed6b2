import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../listing/list-request';

/**
 * The query string of a list endpoint as parseListRequest (src/listing/list-request.ts) accepts
 * it. That function builds its schema inline, so this is a copy for the document;
 * test/unit/openapi-list-query.test.ts holds the two to the same answers.
 */
export function listQuerySchema(statuses: readonly [string, ...string[]]) {
  return z
    .object({
      limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20).meta({ description: 'Items per page.' }),
      cursor: z.string().min(1).max(4096).optional().meta({ description: "The previous page's next_cursor; the other parameters must stay the same." }),
      status: z.enum(statuses).optional().meta({ description: 'Only items in this status.' }),
      created_after: z.iso.datetime({ offset: true }).optional().meta({ description: 'Only items created at or after this instant (RFC 3339).' }),
      created_before: z.iso.datetime({ offset: true }).optional().meta({ description: 'Only items created before this instant (RFC 3339).' }),
    })
    .strict();
}

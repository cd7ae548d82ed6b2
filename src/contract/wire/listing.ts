import { z } from 'zod';

export const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 20;

/** The paging parameters every list endpoint takes. */
export const PAGE_QUERY = {
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).meta({ description: 'Items per page.' }),
  cursor: z.string().min(1).max(4096).optional().meta({ description: "The previous page's next_cursor, exactly as it came (it is signed: an altered one is 400); the other parameters must stay the same." }),
};

const CREATED_FILTERS = {
  created_after: z.iso.datetime({ offset: true }).optional().meta({ description: 'Only items created at or after this instant (RFC 3339).' }),
  created_before: z.iso.datetime({ offset: true }).optional().meta({ description: 'Only items created before this instant (RFC 3339).' }),
};

/** The query string of a list endpoint whose items have these statuses. */
export function listQuerySchema<S extends string>(statuses: readonly [S, ...S[]]) {
  return z
    .object({
      ...PAGE_QUERY,
      status: z.enum(statuses).optional().meta({ description: 'Only items in this status.' }),
      ...CREATED_FILTERS,
    })
    .strict();
}

/** A list request as the service reads it (the page size defaulted). */
export type ListRequest<S extends string> = z.output<z.ZodObject<typeof PAGE_QUERY & typeof CREATED_FILTERS>> & { status?: S };

/** What a client may send to a list endpoint; a cursor is bound to the filters it was issued with. */
export type ListQuery<S extends string> = Partial<ListRequest<S>>;

const pageFields = {
  has_more: z.boolean(),
  next_cursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
};

/** One page of a list endpoint, as src/api/platform/listing/list-resources.ts builds it. */
export function listPageSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), ...pageFields });
}

/** One page of a list endpoint; pass `next_cursor` back as `cursor` for the next one. */
export type ListPage<T> = { data: T[] } & z.output<z.ZodObject<typeof pageFields>>;

import { z } from 'zod';
import { ApiError } from '../http/api-error';
import { describeFirstIssue } from '../http/zod-issues';

export const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 20;

export interface ListRequest<S extends string> {
  limit: number;
  cursor?: string;
  status?: S;
  created_after?: string;
  created_before?: string;
}

/** The paging parameters every list endpoint takes. */
export const PAGE_QUERY = {
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).meta({ description: 'Items per page.' }),
  cursor: z.string().min(1).max(4096).optional().meta({ description: "The previous page's next_cursor, exactly as it came (it is signed: an altered one is 400); the other parameters must stay the same." }),
};

/** The query string of a list endpoint; the OpenAPI document is generated from this same schema. */
export function listQuerySchema(statuses: readonly [string, ...string[]]) {
  return z
    .object({
      ...PAGE_QUERY,
      status: z.enum(statuses).optional().meta({ description: 'Only items in this status.' }),
      created_after: z.iso.datetime({ offset: true }).optional().meta({ description: 'Only items created at or after this instant (RFC 3339).' }),
      created_before: z.iso.datetime({ offset: true }).optional().meta({ description: 'Only items created before this instant (RFC 3339).' }),
    })
    .strict();
}

/** Validates the query string of a list endpoint; unknown parameters are refused like unknown body fields. */
export function parseListRequest<S extends string>(query: unknown, statuses: readonly [S, ...S[]]): ListRequest<S> {
  const parsed = listQuerySchema(statuses).safeParse(query ?? {});
  if (!parsed.success) throw ApiError.invalidRequest(describeFirstIssue(parsed.error));
  return parsed.data as ListRequest<S>;
}

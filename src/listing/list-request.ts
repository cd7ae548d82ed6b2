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

/** Validates the query string of a list endpoint; unknown parameters are refused like unknown body fields. */
export function parseListRequest<S extends string>(query: unknown, statuses: readonly [S, ...S[]]): ListRequest<S> {
  const schema = z
    .object({
      limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
      cursor: z.string().min(1).max(4096).optional(),
      status: z.enum(statuses).optional(),
      created_after: z.iso.datetime({ offset: true }).optional(),
      created_before: z.iso.datetime({ offset: true }).optional(),
    })
    .strict();
  const parsed = schema.safeParse(query ?? {});
  if (!parsed.success) throw ApiError.invalidRequest(describeFirstIssue(parsed.error));
  return parsed.data as ListRequest<S>;
}

import { listQuerySchema, type ListRequest } from '../../../contract/wire/listing';
import { ApiError } from '../http/api-error';
import { describeFirstIssue } from '../http/zod-issues';

/** Validates the query string of a list endpoint; unknown parameters are refused like unknown body fields. */
export function parseListRequest<S extends string>(query: unknown, statuses: readonly [S, ...S[]]): ListRequest<S> {
  const parsed = listQuerySchema(statuses).safeParse(query ?? {});
  if (!parsed.success) throw ApiError.invalidRequest(describeFirstIssue(parsed.error));
  return parsed.data as ListRequest<S>;
}

import type { z } from 'zod';
import { listQuerySchema, type ListRequest } from '../../../contract/wire/listing';
import { ApiError } from '../http/api-error';
import { describeFirstIssue } from '../http/zod-issues';

// One schema per list of statuses, built on first use: zod compiles an object schema's parser the
// first time it parses, which a schema built per request would pay on every list.
const schemas = new WeakMap<readonly string[], z.ZodType>();

/** Validates the query string of a list endpoint; unknown parameters are refused like unknown body fields. */
export function parseListRequest<S extends string>(query: unknown, statuses: readonly [S, ...S[]]): ListRequest<S> {
  let schema = schemas.get(statuses);
  if (!schema) {
    schema = listQuerySchema(statuses);
    schemas.set(statuses, schema);
  }
  const parsed = schema.safeParse(query ?? {});
  if (!parsed.success) throw ApiError.invalidRequest(describeFirstIssue(parsed.error));
  return parsed.data as ListRequest<S>;
}

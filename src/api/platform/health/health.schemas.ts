import { z } from 'zod';
import { ERROR_CODES } from '../error-catalog';
import type { ErrorBody } from '../../http/api-error';
import type { ListPage } from '../../listing/list-resources';
import type { SameType } from './same-type';

/** The one body of every non-2xx answer (docs/api.md, Errors); the check at the end holds it equal to ErrorBody. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string().meta({ description: 'Safe to show; never contains a key.' }),
    request_id: z.string().meta({ description: 'Also in the X-Request-Id header; quote it to support.', example: 'req_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0' }),
  }),
});

/** One page of a list endpoint, as src/listing/list-resources.ts builds it. */
export function listPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
  });
}

export const livenessSchema = z.object({ status: z.literal('ok') });

export const readinessSchema = z.object({
  status: z.literal('ready'),
  checks: z.record(z.string(), z.literal('ok')).meta({ example: { temporal: 'ok', key_store: 'ok' } }),
});

const _errorBodyDocumented: SameType<z.output<typeof errorBodySchema>, ErrorBody> = true;
const _listPageDocumented: SameType<z.output<ReturnType<typeof listPageSchema<z.ZodString>>>, ListPage<string>> = true;

import { z } from 'zod';
import { ApiError } from '../platform/http/api-error';
import { describeFirstIssue } from '../platform/http/zod-issues';

const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_DAYS = 30;

const day = z.iso.date({ error: 'must be a day, YYYY-MM-DD (UTC)' });

/** The query string of GET /v1/usage; the OpenAPI document is generated from this schema. */
export const usageQuerySchema = z
  .object({
    from: day.optional().meta({ description: `The first day (UTC), inclusive. Default: ${DEFAULT_DAYS - 1} days before \`to\`.`, example: '2026-11-01' }),
    to: day.optional().meta({ description: 'The last day (UTC), inclusive. Default: today.', example: '2026-11-30' }),
  })
  .strict();

export interface UsageRange {
  from: string;
  to: string;
}

/** The days asked for; a `from` after `to` is a range without days. */
export function parseUsageRange(query: unknown, now: Date = new Date()): UsageRange {
  const parsed = usageQuerySchema.safeParse(query ?? {});
  if (!parsed.success) throw ApiError.invalidRequest(describeFirstIssue(parsed.error));
  const to = parsed.data.to ?? now.toISOString().slice(0, 10);
  const from = parsed.data.from ?? new Date(Date.parse(to) - (DEFAULT_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  return { from, to };
}

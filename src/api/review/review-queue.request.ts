import { z } from 'zod';
import { ApiError } from '../http/api-error';
import { describeFirstIssue } from '../http/zod-issues';
import { PAGE_QUERY } from '../listing/list-request';

const FLAG = z.enum(['true', 'false']).optional();

/** The review queue's query string; the OpenAPI document is generated from this same schema. */
export const reviewQueueQuerySchema = z
  .object({
    ...PAGE_QUERY,
    overdue: FLAG.meta({ description: '`true`: only assessments past their current deadline (claim or verdict).' }),
    claimed_by_me: FLAG.meta({ description: '`true`: only assessments the authenticated reviewer holds.' }),
  })
  .strict();

export interface ReviewQueueRequest {
  limit: number;
  cursor?: string;
  overdue: boolean;
  claimedByMe: boolean;
}

/** Validates the queue's query string; unknown parameters are refused like unknown body fields. */
export function parseReviewQueueRequest(query: unknown): ReviewQueueRequest {
  const parsed = reviewQueueQuerySchema.safeParse(query ?? {});
  if (!parsed.success) throw ApiError.invalidRequest(describeFirstIssue(parsed.error));
  const { limit, cursor, overdue, claimed_by_me: claimedByMe } = parsed.data;
  return { limit, ...(cursor === undefined ? {} : { cursor }), overdue: overdue === 'true', claimedByMe: claimedByMe === 'true' };
}

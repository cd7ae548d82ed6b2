import { z } from 'zod';
import { ApiError } from '../platform/http/api-error';
import { describeFirstIssue } from '../platform/http/zod-issues';
import { PAGE_QUERY } from '../../contract/wire/listing';

const FLAG = z.enum(['true', 'false']).optional();
// Stage and group names as REVIEW_PIPELINES allows them.
const PIPELINE_NAME = z.string().regex(/^[a-z0-9_-]{1,32}$/, 'must be 1-32 characters of a-z, 0-9, _ and -').optional();

/** The review queue's query string; the OpenAPI document is generated from this same schema. */
export const reviewQueueQuerySchema = z
  .object({
    ...PAGE_QUERY,
    overdue: FLAG.meta({ description: '`true`: only assessments past their current deadline (claim or verdict).' }),
    claimed_by_me: FLAG.meta({ description: '`true`: only assessments the authenticated reviewer holds.' }),
    stage: PIPELINE_NAME.meta({ description: 'Only assessments whose active review stage has this name (`review` is the stage of the default, single-stage pipeline).', example: 'network' }),
    group: PIPELINE_NAME.meta({ description: 'Only assessments whose active review stage belongs to this reviewer group.', example: 'security' }),
  })
  .strict();

export interface ReviewQueueRequest {
  limit: number;
  cursor?: string;
  overdue: boolean;
  claimedByMe: boolean;
  stage?: string;
  group?: string;
}

/** Validates the queue's query string; unknown parameters are refused like unknown body fields. */
export function parseReviewQueueRequest(query: unknown): ReviewQueueRequest {
  const parsed = reviewQueueQuerySchema.safeParse(query ?? {});
  if (!parsed.success) throw ApiError.invalidRequest(describeFirstIssue(parsed.error));
  const { limit, cursor, overdue, claimed_by_me: claimedByMe, stage, group } = parsed.data;
  return {
    limit,
    ...(cursor === undefined ? {} : { cursor }),
    overdue: overdue === 'true',
    claimedByMe: claimedByMe === 'true',
    ...(stage === undefined ? {} : { stage }),
    ...(group === undefined ? {} : { group }),
  };
}

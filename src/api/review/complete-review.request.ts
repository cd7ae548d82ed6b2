import { z } from 'zod';
import { MAX_NOTES_LENGTH, REVIEW_VERDICTS, type ReviewVerdict } from '../../contract';
import { ApiError } from '../platform/http/api-error';
import { multiLineNotBlank } from '../platform/http/text-patterns';
import { describeFirstIssue } from '../platform/http/zod-issues';

export const completeReviewSchema = z
  .object({
    verdict: z.enum(REVIEW_VERDICTS, { error: `must be one of ${REVIEW_VERDICTS.join(', ')}` }),
    notes: z
      .string({ error: 'required, a string' })
      .max(MAX_NOTES_LENGTH, { error: `must be at most ${MAX_NOTES_LENGTH} characters` })
      .check(multiLineNotBlank('must not be blank'))
      .meta({ description: 'What the customer should know or change; shown to them in GET.' }),
  })
  .strict();

export interface CompleteReviewRequest {
  verdict: ReviewVerdict;
  notes: string;
}

export function parseCompleteReviewRequest(body: unknown): CompleteReviewRequest {
  const parsed = completeReviewSchema.safeParse(body);
  if (!parsed.success) throw ApiError.invalidRequest(describeFirstIssue(parsed.error));
  return parsed.data;
}

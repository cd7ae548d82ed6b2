import { completeReviewSchema, type CompleteReviewRequest } from '../../contract/wire/review';
import { ApiError } from '../platform/http/api-error';
import { describeFirstIssue } from '../platform/http/zod-issues';

export function parseCompleteReviewRequest(body: unknown): CompleteReviewRequest {
  const parsed = completeReviewSchema.safeParse(body);
  if (!parsed.success) throw ApiError.invalidRequest(describeFirstIssue(parsed.error));
  return parsed.data;
}

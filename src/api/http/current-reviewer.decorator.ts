import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Reviewer } from '../reviewers/reviewer-authenticator';
import type { ReviewerRequest } from './auth.guard';

/** The reviewer the request's credential belongs to (set by AuthGuard on review routes). */
export const CurrentReviewer = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Reviewer => context.switchToHttp().getRequest<ReviewerRequest>().reviewer,
);

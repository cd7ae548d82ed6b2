import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Reviewer } from '../reviewers/reviewer-authenticator';
import type { ReviewerRequest } from './request-authenticator';

/** The reviewer the request's credential belongs to (set by RequestAuthenticator on review routes). */
export const CurrentReviewer = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Reviewer => context.switchToHttp().getRequest<ReviewerRequest>().reviewer,
);

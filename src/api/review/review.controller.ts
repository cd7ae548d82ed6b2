import { Body, Controller, Param, Query } from '@nestjs/common';
import type { OperatorAssessmentView, PendingAssessment, ReviewerIdentity } from '../../contract/wire';
import type { AssessmentReviewSnapshot } from '../../contract';
import { ApiRoute } from '../platform/http/api-route';
import { CurrentReviewer } from '../platform/http/current-reviewer.decorator';
import type { Reviewer } from '../platform/reviewers/reviewer-authenticator';
import type { ListPage } from '../../contract/wire/listing';
import { parseCompleteReviewRequest } from './complete-review.request';
import { parseReviewQueueRequest } from './review-queue.request';
import { REVIEW_ROUTES } from './review.routes';
import { ReviewService } from './review.service';

@Controller()
export class ReviewController {
  constructor(private readonly review: ReviewService) {}

  @ApiRoute(REVIEW_ROUTES.me)
  me(@CurrentReviewer() reviewer: Reviewer): ReviewerIdentity {
    return this.review.identity(reviewer);
  }

  @ApiRoute(REVIEW_ROUTES.queue)
  queue(@CurrentReviewer() reviewer: Reviewer, @Query() query: unknown): Promise<ListPage<PendingAssessment>> {
    return this.review.queue(reviewer, parseReviewQueueRequest(query));
  }

  @ApiRoute(REVIEW_ROUTES.get)
  get(@CurrentReviewer() reviewer: Reviewer, @Param('assessmentId') assessmentId: string): Promise<OperatorAssessmentView> {
    return this.review.show(reviewer, assessmentId);
  }

  @ApiRoute(REVIEW_ROUTES.claim)
  claim(@CurrentReviewer() reviewer: Reviewer, @Param('assessmentId') assessmentId: string): Promise<AssessmentReviewSnapshot> {
    return this.review.claim(reviewer, assessmentId);
  }

  @ApiRoute(REVIEW_ROUTES.release)
  release(@CurrentReviewer() reviewer: Reviewer, @Param('assessmentId') assessmentId: string): Promise<AssessmentReviewSnapshot> {
    return this.review.release(reviewer, assessmentId);
  }

  @ApiRoute(REVIEW_ROUTES.complete)
  complete(@CurrentReviewer() reviewer: Reviewer, @Param('assessmentId') assessmentId: string, @Body() body: unknown): Promise<AssessmentReviewSnapshot> {
    return this.review.complete(reviewer, assessmentId, parseCompleteReviewRequest(body));
  }
}

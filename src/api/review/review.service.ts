import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../common/config/app-config';
import type { CompleteReviewRequest, OperatorAssessmentView, PendingAssessment, ReviewerIdentity } from '../../contract/wire';
import { AssessmentNotFoundError, AssessmentReviewClient, ReviewRefusedError, ReviewUnconfirmedError } from './assessment-review-client';
import { SubmittedArchitectures } from './submitted-architectures';
import type { AssessmentIndexRow } from '../../common/storage/tables';
import { AssessmentRevisionStore } from '../../common/storage/assessment-revision-store';
import type { AssessmentReviewSnapshot } from '../../contract';
import { ApiError } from '../platform/http/api-error';
import type { ListPage } from '../../contract/wire/listing';
import { AssessmentIndex } from './assessment-index';
import type { Reviewer } from '../platform/reviewers/reviewer-authenticator';
import { TemporalClients } from '../platform/temporal/temporal-clients';
import { ReviewQueue } from './review-queue';
import type { ReviewQueueRequest } from './review-queue.request';
import { ReviewerSight } from './reviewer-sight';

/**
 * The architecture team's operations for an authenticated reviewer, in the credential's
 * environment. The reviewer the workflow records is always the credential's name: the request
 * cannot name one, so nobody can claim or complete as someone else. Assessments are found through
 * the review index, which every action the workflow accepts moves too. The reviewer's groups go
 * with every claim and verdict, from the credential too: the workflow refuses a stage outside them.
 * They also decide what the reviewer sees (ReviewerSight): the rest is not found, by GET and by
 * every action alike, and a revision link to it is left out.
 */
@Injectable()
export class ReviewService {
  constructor(
    private readonly temporal: TemporalClients,
    private readonly config: AppConfig,
    private readonly index: AssessmentIndex,
    private readonly reviewQueue: ReviewQueue,
    private readonly architectures: SubmittedArchitectures,
    private readonly revisionLinks: AssessmentRevisionStore,
    private readonly sight: ReviewerSight,
  ) {}

  identity(reviewer: Reviewer): ReviewerIdentity {
    return { reviewer_id: reviewer.reviewerId, name: reviewer.name, environment: reviewer.environment, groups: [...reviewer.groups] };
  }

  queue(reviewer: Reviewer, request: ReviewQueueRequest): Promise<ListPage<PendingAssessment>> {
    return this.temporal.withDeadline(() => this.reviewQueue.page(reviewer, request));
  }

  show(reviewer: Reviewer, assessmentId: string): Promise<OperatorAssessmentView> {
    const client = this.client(reviewer, (id) => this.index.locate(reviewer.environment, id));
    return this.temporal.withDeadline(() => client.show(assessmentId).catch(toApiError));
  }

  claim(reviewer: Reviewer, assessmentId: string): Promise<AssessmentReviewSnapshot> {
    return this.act(reviewer, (client) => client.claim(assessmentId, { reviewer: reviewer.name, groups: [...reviewer.groups] }));
  }

  release(reviewer: Reviewer, assessmentId: string): Promise<AssessmentReviewSnapshot> {
    return this.act(reviewer, (client) => client.release(assessmentId, { reviewer: reviewer.name }));
  }

  complete(reviewer: Reviewer, assessmentId: string, request: CompleteReviewRequest): Promise<AssessmentReviewSnapshot> {
    return this.act(reviewer, (client) => client.complete(assessmentId, { ...request, reviewer: reviewer.name, groups: [...reviewer.groups] }));
  }

  /**
   * The update has its own deadline (REVIEW_UPDATE_TIMEOUT_MS); the lookups before it have the
   * usual one on top. The index learns the new place from the workflow's answer, on the row the
   * client located the assessment with (one read of the index per action, not two).
   */
  private act(reviewer: Reviewer, use: (client: AssessmentReviewClient) => Promise<AssessmentReviewSnapshot>): Promise<AssessmentReviewSnapshot> {
    const values = this.config.values;
    let located: AssessmentIndexRow | undefined;
    const client = this.client(reviewer, async (id) => (located = await this.index.locate(reviewer.environment, id)));
    return this.temporal.withDeadline(async () => {
      const snapshot = await use(client).catch(toApiError);
      if (located) await this.index.recordReview(located, snapshot);
      return snapshot;
    }, values.REVIEW_UPDATE_TIMEOUT_MS + values.TEMPORAL_RPC_TIMEOUT_MS);
  }

  /** A client is a few references: one per operation of one reviewer, so an action can keep the index row its lookup read. */
  private client(reviewer: Reviewer, locate: (assessmentId: string) => Promise<AssessmentIndexRow | undefined>): AssessmentReviewClient {
    const values = this.config.values;
    const { environment } = reviewer;
    const options = { updateTimeoutMs: values.REVIEW_UPDATE_TIMEOUT_MS, retentionMs: values.RETENTION_PERIOD };
    return new AssessmentReviewClient(this.temporal.client(environment), options, {
      locate,
      architectures: this.architectures,
      revisions: (ref) => this.revisionLinks.links(environment, ref),
      inSight: (assessmentId, state) => this.inSight(reviewer, assessmentId, state),
    });
  }

  /**
   * ReviewerSight on the review state. While the checks run there is none, and the index row says
   * the first stage: read again (one indexed row, for those seconds of an assessment's life), since
   * it may be the other end of a revision link rather than the one located.
   */
  private async inSight(reviewer: Reviewer, assessmentId: string, state: AssessmentReviewSnapshot | undefined): Promise<boolean> {
    const indexed = state === undefined ? await this.index.locate(reviewer.environment, assessmentId) : undefined;
    return this.sight.sees(reviewer, state, indexed);
  }
}

function toApiError(error: unknown): never {
  if (error instanceof AssessmentNotFoundError) throw ApiError.notFound(`Assessment ${error.assessmentId}`);
  if (error instanceof ReviewRefusedError) {
    if (error.code === 'INVALID_REVIEW_REQUEST') throw ApiError.invalidRequest(error.message);
    throw new ApiError(409, 'REVIEW_REFUSED', `${error.code}: ${error.message}`);
  }
  if (error instanceof ReviewUnconfirmedError) {
    throw new ApiError(504, 'REVIEW_UNCONFIRMED', 'No worker confirmed the action in time; it may still apply when one runs: GET the assessment before retrying');
  }
  throw error;
}

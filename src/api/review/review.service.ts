import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../common/config/app-config';
import type { KeyEnvironment } from '../../common/keys/api-key';
import {
  AssessmentNotFoundError,
  AssessmentReviewClient,
  ReviewRefusedError,
  ReviewUnconfirmedError,
  type OperatorAssessmentView,
  type PendingAssessment,
} from '../../common/review/assessment-review-client';
import type { AssessmentReviewSnapshot } from '../../contract';
import { ApiError } from '../http/api-error';
import type { Reviewer } from '../reviewers/reviewer-authenticator';
import { TemporalClients } from '../temporal/temporal-clients';
import type { CompleteReviewRequest } from './complete-review.request';

export interface ReviewerIdentity {
  reviewer_id: string;
  name: string;
  environment: KeyEnvironment;
}

/**
 * The architecture team's operations for an authenticated reviewer, in the credential's
 * environment. The reviewer the workflow records is always the credential's name: the request
 * cannot name one, so nobody can claim or complete as someone else.
 */
@Injectable()
export class ReviewService {
  constructor(
    private readonly temporal: TemporalClients,
    private readonly config: AppConfig,
  ) {}

  identity(reviewer: Reviewer): ReviewerIdentity {
    return { reviewer_id: reviewer.reviewerId, name: reviewer.name, environment: reviewer.environment };
  }

  queue(reviewer: Reviewer): Promise<PendingAssessment[]> {
    return this.read(reviewer, (client) => client.pending());
  }

  show(reviewer: Reviewer, assessmentId: string): Promise<OperatorAssessmentView> {
    return this.read(reviewer, (client) => client.show(assessmentId));
  }

  claim(reviewer: Reviewer, assessmentId: string): Promise<AssessmentReviewSnapshot> {
    return this.act(reviewer, (client) => client.claim(assessmentId, { reviewer: reviewer.name }));
  }

  release(reviewer: Reviewer, assessmentId: string): Promise<AssessmentReviewSnapshot> {
    return this.act(reviewer, (client) => client.release(assessmentId, { reviewer: reviewer.name }));
  }

  complete(reviewer: Reviewer, assessmentId: string, request: CompleteReviewRequest): Promise<AssessmentReviewSnapshot> {
    return this.act(reviewer, (client) => client.complete(assessmentId, { ...request, reviewer: reviewer.name }));
  }

  private read<T>(reviewer: Reviewer, use: (client: AssessmentReviewClient) => Promise<T>): Promise<T> {
    return this.temporal.withDeadline(() => use(this.client(reviewer)).catch(toApiError));
  }

  /** The update has its own deadline (REVIEW_UPDATE_TIMEOUT_MS); the lookups before it have the usual one on top. */
  private act<T>(reviewer: Reviewer, use: (client: AssessmentReviewClient) => Promise<T>): Promise<T> {
    const values = this.config.values;
    return this.temporal.withDeadline(() => use(this.client(reviewer)).catch(toApiError), values.REVIEW_UPDATE_TIMEOUT_MS + values.TEMPORAL_RPC_TIMEOUT_MS);
  }

  private client(reviewer: Reviewer): AssessmentReviewClient {
    return new AssessmentReviewClient(this.temporal.client(reviewer.environment), { updateTimeoutMs: this.config.values.REVIEW_UPDATE_TIMEOUT_MS, retentionMs: this.config.values.RETENTION_PERIOD });
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

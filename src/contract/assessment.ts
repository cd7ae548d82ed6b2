// Network assessments: ids, workflow, the graph, findings, the review and its updates and query.

import { defineQuery, defineUpdate } from '@temporalio/workflow';

export const ASSESSMENT_WORKFLOW_TYPE = 'assessmentWorkflow';
export const ASSESSMENT_WORKFLOW_ID_PREFIX = 'assessment/';

/** The organisation is part of the workflow id, so another organisation's assessment id resolves to nothing. */
export function assessmentWorkflowId(organizationId: string, assessmentId: string): string {
  return `${ASSESSMENT_WORKFLOW_ID_PREFIX}${organizationId}/${assessmentId}`;
}

// The graph, a finding and the review's parts are what clients send and read, so the wire declares
// them (./wire/assessment; type-only: no schema enters the workflow bundle).
export type { AssessmentClaim, AssessmentEscalation, AssessmentReview, AssessmentStage, Finding, NetworkComponent, NetworkLink, StageReview } from './wire/assessment';
import type { AssessmentReview, AssessmentStage, CreateAssessmentRequest, Finding } from './wire/assessment';
import type { ReviewSnapshot } from './wire/review';
import type { ReviewVerdict } from './wire/values';

export type NetworkGraph = Pick<CreateAssessmentRequest, 'components' | 'links'>;

/** How long an assessment may wait for a reviewer, and a claimed one for its verdict; fixed at creation. */
export interface AssessmentSla {
  claimWithinMs: number;
  reviewWithinMs: number;
}

/**
 * One stage of review as the operator configured it (REVIEW_PIPELINES), fixed into each assessment
 * when it is created: a later change of configuration never moves a running assessment.
 */
export interface ReviewStageDefinition {
  /** Unique within the pipeline, e.g. `network`. */
  name: string;
  /** The reviewer group whose members may act on this stage; null lets every reviewer act. */
  group: string | null;
  claimWithinMs: number;
  reviewWithinMs: number;
  /** 2 is four-eyes: approvals from two different reviewers; 1 otherwise. */
  approvalsRequired: 1 | 2;
}

export interface ReviewPipeline {
  stages: ReviewStageDefinition[];
  /** When true, a reviewer who approved one stage of an assessment may not approve another. */
  distinctApproversAcrossStages: boolean;
}

/** The pipeline of an assessment created before pipelines existed, or configured with none: one stage anyone may review. */
export const DEFAULT_REVIEW_STAGE_NAME = 'review';

export function singleStagePipeline(sla: AssessmentSla): ReviewPipeline {
  return {
    stages: [{ name: DEFAULT_REVIEW_STAGE_NAME, group: null, claimWithinMs: sla.claimWithinMs, reviewWithinMs: sla.reviewWithinMs, approvalsRequired: 1 }],
    distinctApproversAcrossStages: false,
  };
}

export interface AssessmentWorkflowInput {
  assessmentId: string;
  organizationId: string;
  name: string;
  context: string;
  graph: NetworkGraph;
  /** The first stage's deadlines; what assessments created before pipelines were reviewed with. */
  sla: AssessmentSla;
  /** Absent in assessments created before pipelines: they have singleStagePipeline(sla). */
  pipeline?: ReviewPipeline;
  /** The assessment this one revises (its verdict was changes_requested), in the same organisation. */
  revisionOf?: string;
}

/**
 * The review's state as the workflow publishes it after every transition (memo key `state`) and
 * returns from every reviewer update: what a reviewer update answers, with the active stage's name
 * (absent once completed) and every stage in order (absent in states published before pipelines).
 * Findings are published once, under their own memo key, so the frequent small upserts never
 * repeat them.
 */
export type AssessmentReviewSnapshot = ReviewSnapshot & { stage?: string; stages?: AssessmentStage[] };

/** The whole public state: what the query answers and the workflow returns when it closes. */
export interface AssessmentView extends AssessmentReviewSnapshot {
  findings?: Finding[];
}

/** Memo of an assessment workflow: the first three keys are written at start, the rest by the workflow. */
export interface AssessmentMemo {
  created_at: string;
  name: string;
  /** SHA-256 of the normalised request, to tell an idempotent replay from a reused key. */
  request_hash: string;
  state?: AssessmentReviewSnapshot;
  findings?: Finding[];
}

/** The reviewer groups a request acts with: the credential's, never what a client says. */
export const MAX_REVIEWER_GROUPS = 20;

export interface ClaimAssessmentRequest {
  reviewer: string;
  /** The reviewer's groups; a stage with a group accepts only its members. */
  groups?: string[];
}

export interface CompleteAssessmentRequest {
  verdict: ReviewVerdict;
  notes: string;
  /** When given, must be the reviewer holding the claim. */
  reviewer?: string;
  groups?: string[];
}

export interface ReleaseAssessmentRequest {
  /** When given, must be the reviewer holding the claim. */
  reviewer?: string;
}

/** ApplicationFailure types with which the workflow refuses a reviewer update (in its validator). */
export const REVIEW_REFUSAL_CODES = [
  'INVALID_REVIEW_REQUEST',
  'CHECKS_RUNNING',
  'ALREADY_CLAIMED',
  'NOT_CLAIMED',
  'CLAIMED_BY_ANOTHER_REVIEWER',
  'ALREADY_COMPLETED',
  'NOT_IN_STAGE_GROUP',
  'FOUR_EYES',
] as const;
export type ReviewRefusalCode = (typeof REVIEW_REFUSAL_CODES)[number];

/** The ALREADY_COMPLETED refusal's words: the workflow refuses so, and the reviewer CLI too when it finds the workflow closed. */
export function alreadyCompletedMessage(review: AssessmentReview): string {
  return `Already completed (${review.verdict} by ${review.reviewer} at ${review.completed_at}); it accepts no further actions`;
}

export const claimAssessmentUpdate = defineUpdate<AssessmentReviewSnapshot, [ClaimAssessmentRequest]>('claimAssessment');
export const completeAssessmentUpdate = defineUpdate<AssessmentReviewSnapshot, [CompleteAssessmentRequest]>('completeAssessment');
export const releaseAssessmentUpdate = defineUpdate<AssessmentReviewSnapshot, [ReleaseAssessmentRequest]>('releaseAssessment');
export const assessmentStateQuery = defineQuery<AssessmentView>('assessmentState');

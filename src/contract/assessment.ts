// Network assessments: ids, workflow, the graph, findings, the review and its updates and query.

import { defineQuery, defineUpdate } from '@temporalio/workflow';

export const ASSESSMENT_WORKFLOW_TYPE = 'assessmentWorkflow';
export const ASSESSMENT_ID_PREFIX = 'asmt_';
export const ASSESSMENT_WORKFLOW_ID_PREFIX = 'assessment/';

/** The organisation is part of the workflow id, so another organisation's assessment id resolves to nothing. */
export function assessmentWorkflowId(organizationId: string, assessmentId: string): string {
  return `${ASSESSMENT_WORKFLOW_ID_PREFIX}${organizationId}/${assessmentId}`;
}

// The graph, a finding and the review's parts are what clients send and read, so the SDK's wire
// types are the one definition (type-only: nothing of the SDK enters the workflow bundle); the
// lists are for run time.
export type {
  AssessmentClaim,
  AssessmentEscalation,
  AssessmentEscalationKind,
  AssessmentStage,
  AssessmentStatus,
  Finding,
  FindingSeverity,
  NetworkComponent,
  NetworkLink,
  ReviewStageState,
  ReviewVerdict,
  StageReview,
} from '../sdk/resources';
import type {
  AssessmentClaim,
  AssessmentEscalation,
  AssessmentEscalationKind,
  AssessmentReview as WireAssessmentReview,
  AssessmentStage,
  AssessmentStatus,
  CreateAssessmentRequest,
  Finding,
  FindingSeverity,
  ReviewStageState,
  ReviewVerdict,
} from '../sdk/resources';
import type { ListsEveryValue } from './every-value';

export const REVIEW_STAGE_STATES = ['pending', 'active', 'approved', 'changes_requested', 'rejected', 'skipped'] as const satisfies readonly ReviewStageState[];
const _everyReviewStageState: ListsEveryValue<ReviewStageState, typeof REVIEW_STAGE_STATES> = true;

export type NetworkGraph = Pick<CreateAssessmentRequest, 'components' | 'links'>;

export const FINDING_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const satisfies readonly FindingSeverity[];
const _everyFindingSeverity: ListsEveryValue<FindingSeverity, typeof FINDING_SEVERITIES> = true;

export const ASSESSMENT_STATUSES = ['submitted', 'under_review', 'completed'] as const satisfies readonly AssessmentStatus[];
const _everyAssessmentStatus: ListsEveryValue<AssessmentStatus, typeof ASSESSMENT_STATUSES> = true;

export const REVIEW_VERDICTS = ['approved', 'changes_requested', 'rejected'] as const satisfies readonly ReviewVerdict[];
const _everyReviewVerdict: ListsEveryValue<ReviewVerdict, typeof REVIEW_VERDICTS> = true;

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

/** The pipeline's outcome: the deciding stage's verdict, by the reviewer who gave it; this service always writes every field the SDK leaves optional for older servers. */
export type AssessmentReview = Required<WireAssessmentReview>;

export const ASSESSMENT_ESCALATION_KINDS = ['claim_overdue', 'review_overdue'] as const satisfies readonly AssessmentEscalationKind[];
const _everyEscalationKind: ListsEveryValue<AssessmentEscalationKind, typeof ASSESSMENT_ESCALATION_KINDS> = true;

/**
 * The review's state as the workflow publishes it after every transition (memo key `state`) and
 * returns from every reviewer update. Findings are published once, under their own memo key, so
 * the frequent small upserts never repeat them.
 */
export interface AssessmentReviewSnapshot {
  status: AssessmentStatus;
  updated_at: string;
  checks_completed: boolean;
  /** Present while under_review. */
  claim?: AssessmentClaim;
  /** Present once completed. */
  review?: AssessmentReview;
  escalations: AssessmentEscalation[];
  /** When the current wait (for a claim, or for a verdict) passes its SLA; absent once completed. */
  due_at?: string;
  /** The active stage's name; absent once completed. */
  stage?: string;
  /** Every stage of the pipeline in order; absent in states published before pipelines. */
  stages?: AssessmentStage[];
}

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

/** Bounds the workflow enforces on a reviewer update; the API refuses beyond them first, as a 400. */
export const MAX_REVIEWER_LENGTH = 100;
export const MAX_NOTES_LENGTH = 20_000;

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

// The one contract between API, worker and workflows: task queue, workflow inputs and outputs,
// signals, queries and updates. Imported by relative path from every side; it must stay free of
// Node built-ins because the workflow bundle includes it.

import { defineSearchAttributeKey } from '@temporalio/common';
import { defineQuery, defineUpdate } from '@temporalio/workflow';

/**
 * Custom search attributes behind the list endpoints. The embedded dev server registers them
 * at start; a real cluster needs `temporal operator search-attribute create` once (README).
 */
export const ORGANIZATION_SEARCH_ATTRIBUTE = defineSearchAttributeKey('AssayOrganization', 'KEYWORD');
export const TASK_TYPE_SEARCH_ATTRIBUTE = defineSearchAttributeKey('AssayTaskType', 'KEYWORD');
export const STATUS_SEARCH_ATTRIBUTE = defineSearchAttributeKey('AssayStatus', 'KEYWORD');
export const SEARCH_ATTRIBUTE_KEYS = [ORGANIZATION_SEARCH_ATTRIBUTE, TASK_TYPE_SEARCH_ATTRIBUTE, STATUS_SEARCH_ATTRIBUTE];

/** Workflows started before this patch closed without publishing their outcome; replay keeps them so. */
export const PUBLISH_TASK_OUTCOME_PATCH = 'publish-task-outcome';

/**
 * Tasks started from this patch on first try to summarise in a local activity, then always
 * publish their outcome and emit their webhook event; older ones replay the activity on the task
 * queue.
 */
export const LOCAL_SUMMARY_PATCH = 'local-summary';

export const TASK_ID_PREFIX = 'task_';
export const ASSESSMENT_ID_PREFIX = 'asmt_';

export type TaskStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type TaskErrorCode = 'INPUT_REJECTED' | 'PROVIDER_UNAVAILABLE' | 'TIMED_OUT' | 'CANCELED' | 'INTERNAL';

export interface TaskError {
  code: TaskErrorCode;
  message: string;
}

export interface SummarizeInput {
  text: string;
  max_sentences?: number;
}

export interface AiTaskWorkflowInput {
  taskId: string;
  organizationId: string;
  taskType: 'summarize';
  input: SummarizeInput;
}

/** What the workflow returns when it closes; a failed task is a completed workflow with this shape. */
export type AiTaskOutcome =
  | { status: 'succeeded'; output: { summary: string } }
  | { status: 'failed'; error: TaskError };

/** Memo written when a task workflow starts; lets the API answer without a worker. */
export interface AiTaskMemo {
  created_at: string;
  task_type: 'summarize';
  /** SHA-256 of the normalised request, to tell an idempotent replay from a reused key. */
  request_hash: string;
  /** Written by the workflow as it closes, so lists and GETs need no second call for the result. */
  outcome?: AiTaskOutcome;
}

export interface NetworkComponent {
  id: string;
  kind: string;
  zone: string;
  attributes?: Record<string, string | number | boolean>;
}

export interface NetworkLink {
  from: string;
  to: string;
  kind?: string;
}

export interface NetworkGraph {
  components: NetworkComponent[];
  links: NetworkLink[];
}

export type FindingSeverity = 'critical' | 'high' | 'medium' | 'low' | 'info';

export interface Finding {
  /** Stable machine name of the check, e.g. "single_point_of_failure". */
  check: string;
  severity: FindingSeverity;
  message: string;
  component_ids: string[];
}

export type AssessmentStatus = 'submitted' | 'under_review' | 'completed';

export const REVIEW_VERDICTS = ['approved', 'changes_requested', 'rejected'] as const;
export type ReviewVerdict = (typeof REVIEW_VERDICTS)[number];

/** How long an assessment may wait for a reviewer, and a claimed one for its verdict; fixed at creation. */
export interface AssessmentSla {
  claimWithinMs: number;
  reviewWithinMs: number;
}

export interface AssessmentWorkflowInput {
  assessmentId: string;
  organizationId: string;
  name: string;
  context: string;
  graph: NetworkGraph;
  sla: AssessmentSla;
}

export interface AssessmentClaim {
  reviewer: string;
  claimed_at: string;
}

export interface AssessmentReview {
  verdict: ReviewVerdict;
  notes: string;
  reviewer: string;
  completed_at: string;
}

export type AssessmentEscalationKind = 'claim_overdue' | 'review_overdue';

export interface AssessmentEscalation {
  kind: AssessmentEscalationKind;
  at: string;
}

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

export interface ClaimAssessmentRequest {
  reviewer: string;
}

export interface CompleteAssessmentRequest {
  verdict: ReviewVerdict;
  notes: string;
  /** When given, must be the reviewer holding the claim. */
  reviewer?: string;
}

export interface ReleaseAssessmentRequest {
  /** When given, must be the reviewer holding the claim. */
  reviewer?: string;
}

/** ApplicationFailure types with which the workflow refuses a reviewer update (in its validator). */
export type ReviewRefusalCode =
  | 'INVALID_REVIEW_REQUEST'
  | 'CHECKS_RUNNING'
  | 'ALREADY_CLAIMED'
  | 'NOT_CLAIMED'
  | 'CLAIMED_BY_ANOTHER_REVIEWER'
  | 'ALREADY_COMPLETED';

export const ASSESSMENT_WORKFLOW_TYPE = 'assessmentWorkflow';

export const claimAssessmentUpdate = defineUpdate<AssessmentReviewSnapshot, [ClaimAssessmentRequest]>('claimAssessment');
export const completeAssessmentUpdate = defineUpdate<AssessmentReviewSnapshot, [CompleteAssessmentRequest]>('completeAssessment');
export const releaseAssessmentUpdate = defineUpdate<AssessmentReviewSnapshot, [ReleaseAssessmentRequest]>('releaseAssessment');
export const assessmentStateQuery = defineQuery<AssessmentView>('assessmentState');

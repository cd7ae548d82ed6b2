import type { AssessmentReviewSnapshot } from '../../contract';
import type { AssessmentWorkflowRef } from '../ids/assessment-ids';
import type { KeyEnvironment } from '../keys/api-key';
import type { AssessmentIndexRow, ReviewPlacement } from '../storage/assessment-index-store';

/** What the review index needs to know of an assessment's workflow, as describe(), a visibility listing or an update's answer reports it. */
export interface ReviewedWorkflow {
  /** The review state the workflow last published (memo `state`); absent until its checks ran. */
  state: AssessmentReviewSnapshot | undefined;
  /** When the run closed, completed or not; undefined while it runs. */
  closeTime: Date | undefined;
}

/**
 * Where the workflow's own state puts the assessment in the queue. A completed review leaves it
 * even before the run closes (it still emits its webhook event); a run closed otherwise (an
 * operator's terminate) leaves it too. Until the checks ran the workflow has published no deadline,
 * so the one the index holds stands.
 */
export function placementOf(workflow: ReviewedWorkflow, currentDueAt: string): ReviewPlacement {
  const { state } = workflow;
  const completedAt = state?.status === 'completed' ? state.updated_at : null;
  return {
    dueAt: state?.due_at ?? currentDueAt,
    claimedBy: state?.claim?.reviewer ?? null,
    closedAt: completedAt ?? workflow.closeTime?.toISOString() ?? null,
  };
}

export function samePlacement(a: ReviewPlacement, b: ReviewPlacement): boolean {
  return a.dueAt === b.dueAt && a.claimedBy === b.claimedBy && a.closedAt === b.closedAt;
}

/**
 * A new row of the index. Until the workflow publishes its deadline, the claim SLA counted from
 * the creation stands in for it: the workflow counts from its start, a few milliseconds later,
 * and the first read of the row in a queue page takes the workflow's.
 */
export function indexRow(environment: KeyEnvironment, ref: AssessmentWorkflowRef, createdAt: string, claimWithinMs: number, workflow: ReviewedWorkflow): AssessmentIndexRow {
  const firstDueAt = new Date(Date.parse(createdAt) + claimWithinMs).toISOString();
  return { environment, ...ref, createdAt, ...placementOf(workflow, firstDueAt) };
}

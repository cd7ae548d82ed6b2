import type { AssessmentRevisionDiff, OperatorAssessmentView, PendingAssessment } from '../../src/contract/wire';
import type { AssessmentStage } from '../../src/sdk';

// What the review pages read of the API, as the SDK and the review client type it (types only:
// nothing of the server enters the bundle).

/** The reviewer GET: stages and revision links, and for a revision what it changed. */
export type ReviewedAssessment = OperatorAssessmentView;

export type RevisionChanges = AssessmentRevisionDiff;

/** One queue line, with the active stage and its group. */
export type QueueItem = PendingAssessment;

/** The stage waiting for a claim or a verdict; none once completed, or from an API without stages. */
export function activeStage(view: { stages?: AssessmentStage[] }): AssessmentStage | undefined {
  return view.stages?.find((stage) => stage.state === 'active');
}

export function approvalsOf(stage: AssessmentStage): number {
  return stage.reviews.filter((review) => review.verdict === 'approved').length;
}

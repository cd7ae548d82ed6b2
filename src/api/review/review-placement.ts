import { DEFAULT_REVIEW_STAGE_NAME, type AssessmentReviewSnapshot, type ReviewStageDefinition } from '../../contract';
import type { AssessmentWorkflowRef } from '../../common/ids/assessment-ids';
import type { KeyEnvironment } from '../../common/keys/api-key';
import type { AssessmentIndexRow, ReviewPlacement } from '../../common/storage/tables';

/** What the review index needs to know of an assessment's workflow, as describe(), a visibility listing or an update's answer reports it. */
export interface ReviewedWorkflow {
  /** The review state the workflow last published (memo `state`); absent until its checks ran. */
  state: AssessmentReviewSnapshot | undefined;
  /** When the run closed, completed or not; undefined while it runs. */
  closeTime: Date | undefined;
}

/** What the index holds until the workflow publishes its own: the deadline and the active stage. */
export type IndexedWait = Pick<ReviewPlacement, 'dueAt' | 'stage' | 'stageGroup'>;

/**
 * Where the workflow's own state puts the assessment in the queue. A completed review leaves it
 * even before the run closes (it still emits its webhook event); a run closed otherwise (an
 * operator's terminate) leaves it too. Until the checks ran the workflow has published no deadline
 * or stage, so the ones the index holds stand.
 */
export function placementOf(workflow: ReviewedWorkflow, current: IndexedWait): ReviewPlacement {
  const { state } = workflow;
  const completedAt = state?.status === 'completed' ? state.updated_at : null;
  return {
    dueAt: state?.due_at ?? current.dueAt,
    claimedBy: state?.claim?.reviewer ?? null,
    closedAt: completedAt ?? workflow.closeTime?.toISOString() ?? null,
    ...(state ? activeStageOf(state) : { stage: current.stage, stageGroup: current.stageGroup }),
  };
}

/**
 * The active stage and its group. A state published before pipelines has no stages: its one stage
 * was the default one, which names no group. A completed review has no active stage.
 */
function activeStageOf(state: AssessmentReviewSnapshot): Pick<ReviewPlacement, 'stage' | 'stageGroup'> {
  if (state.status === 'completed') return { stage: null, stageGroup: null };
  if (state.stages === undefined) return { stage: DEFAULT_REVIEW_STAGE_NAME, stageGroup: null };
  const active = state.stages.find((stage) => stage.name === state.stage);
  return { stage: state.stage ?? null, stageGroup: active?.group ?? null };
}

export function samePlacement(a: ReviewPlacement, b: ReviewPlacement): boolean {
  return a.dueAt === b.dueAt && a.claimedBy === b.claimedBy && a.closedAt === b.closedAt && a.stage === b.stage && a.stageGroup === b.stageGroup;
}

/**
 * A new row of the index. Until the workflow publishes its deadline and stage, the first stage's
 * (when the caller knows the pipeline: the API creating the assessment) stand in for them, its
 * claim deadline counted from the creation: the workflow counts from its start, a few
 * milliseconds later, and the first read of the row in a queue page takes the workflow's.
 */
export function indexRow(
  environment: KeyEnvironment,
  ref: AssessmentWorkflowRef,
  createdAt: string,
  firstStage: Pick<ReviewStageDefinition, 'claimWithinMs'> & Partial<Pick<ReviewStageDefinition, 'name' | 'group'>>,
  workflow: ReviewedWorkflow,
): AssessmentIndexRow {
  const firstDueAt = new Date(Date.parse(createdAt) + firstStage.claimWithinMs).toISOString();
  const current: IndexedWait = { dueAt: firstDueAt, stage: firstStage.name ?? null, stageGroup: firstStage.group ?? null };
  return { environment, ...ref, createdAt, ...placementOf(workflow, current) };
}

import type { AssessmentClaim, AssessmentStage, ReviewStageDefinition, ReviewStageState, StageReview } from '../src/contract';

/** One stage of an assessment's pipeline while the workflow runs: its definition and what happened in it. */
export class ReviewStageProgress {
  state: ReviewStageState = 'pending';
  readonly reviews: StageReview[] = [];
  claim?: AssessmentClaim;
  private startedAt?: string;
  private completedAt?: string;

  constructor(readonly definition: ReviewStageDefinition) {}

  get name(): string {
    return this.definition.name;
  }

  start(now: Date): void {
    this.state = 'active';
    this.startedAt = now.toISOString();
  }

  end(state: Exclude<ReviewStageState, 'pending' | 'active'>, now: Date): void {
    this.state = state;
    this.claim = undefined;
    if (state !== 'skipped') this.completedAt = now.toISOString();
  }

  hasApprovalFrom(reviewer: string): boolean {
    return this.reviews.some((review) => review.reviewer === reviewer && review.verdict === 'approved');
  }

  /** Four-eyes counts reviewers, not verdicts: the same reviewer's approvals are one. */
  get distinctApprovals(): number {
    return new Set(this.reviews.filter((review) => review.verdict === 'approved').map((review) => review.reviewer)).size;
  }

  view(dueAt: string | undefined): AssessmentStage {
    const stage: AssessmentStage = {
      name: this.definition.name,
      group: this.definition.group,
      approvals_required: this.definition.approvalsRequired,
      state: this.state,
      reviews: this.reviews.map((review) => ({ ...review })),
    };
    if (this.claim) stage.claim = { ...this.claim };
    if (this.startedAt) stage.started_at = this.startedAt;
    if (this.completedAt) stage.completed_at = this.completedAt;
    if (dueAt) stage.due_at = dueAt;
    return stage;
  }
}

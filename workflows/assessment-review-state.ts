import {
  MAX_NOTES_LENGTH,
  REVIEW_VERDICTS,
  alreadyCompletedMessage,
  type AssessmentEscalation,
  type AssessmentEscalationKind,
  type AssessmentReview,
  type AssessmentReviewSnapshot,
  type AssessmentStatus,
  type AssessmentView,
  type ClaimAssessmentRequest,
  type CompleteAssessmentRequest,
  type Finding,
  type ReleaseAssessmentRequest,
  type ReviewPipeline,
} from '../src/contract';
import { refuse, requireGroups, requireReviewer } from './review-refusals';
import { ReviewStageProgress } from './review-stage-progress';

/** The wait the workflow is in: for a claim, or for a verdict; both end at the next transition. */
export interface ReviewWait {
  /** Changes on every transition, so a waiter notices a release and re-claim between two wake-ups. */
  transition: number;
  dueAtMs: number;
  overdueKind: AssessmentEscalationKind;
}

export interface ReviewStateOptions {
  /**
   * How assessments started before pipelines released a claim: back to `submitted`. From the
   * review-pipelines patch on, the status never moves backwards and a release keeps it under_review.
   */
  releaseReturnsToSubmitted: boolean;
}

/**
 * The review process as a state machine, free of Temporal calls so it can be unit-tested: the
 * workflow feeds it time and requests, and publishes its snapshot. The assessment moves through
 * its pipeline's stages in order, one active at a time; every `check*` method is an update
 * validator, and the matching action runs the same check first, so a refused request can never
 * change state even if it reached the handler.
 */
export class AssessmentReviewState {
  private status: AssessmentStatus = 'submitted';
  private updatedAt: string;
  private checksCompleted = false;
  private findings?: Finding[];
  private review?: AssessmentReview;
  private readonly escalations: AssessmentEscalation[] = [];
  private readonly stages: ReviewStageProgress[];
  private activeIndex = 0;
  private transition = 0;
  private phaseStartedAtMs: number;
  private phaseEscalated = false;

  constructor(
    private readonly pipeline: ReviewPipeline,
    submittedAt: Date,
    private readonly options: ReviewStateOptions,
  ) {
    this.updatedAt = submittedAt.toISOString();
    this.phaseStartedAtMs = submittedAt.getTime();
    this.stages = pipeline.stages.map((definition) => new ReviewStageProgress(definition));
    this.stages[0].start(submittedAt);
  }

  get isCompleted(): boolean {
    return this.status === 'completed';
  }

  private get active(): ReviewStageProgress {
    return this.stages[this.activeIndex];
  }

  recordFindings(findings: Finding[], now: Date): void {
    this.findings = findings;
    this.checksCompleted = true;
    this.touch(now);
  }

  checkClaim(request: ClaimAssessmentRequest): void {
    this.refuseIfCompleted();
    const reviewer = requireReviewer(request?.reviewer, true);
    const groups = requireGroups(request?.groups);
    if (!this.checksCompleted) refuse('CHECKS_RUNNING', 'The automated checks are still running; claim the assessment once they have finished');
    const stage = this.active;
    if (stage.claim) {
      if (stage.claim.reviewer === reviewer) return;
      refuse('ALREADY_CLAIMED', `Already claimed by ${stage.claim.reviewer} since ${stage.claim.claimed_at}; they must release it first`);
    }
    this.refuseOutsideGroup(groups);
    this.refuseSecondApproval(reviewer);
  }

  /** Claiming again as the reviewer who holds the claim changes nothing, so a retried claim is harmless. */
  claim(request: ClaimAssessmentRequest, now: Date): AssessmentReviewSnapshot {
    this.checkClaim(request);
    if (!this.active.claim) {
      this.active.claim = { reviewer: request.reviewer, claimed_at: now.toISOString() };
      this.moveTo('under_review', now);
    }
    return this.snapshot();
  }

  checkComplete(request: CompleteAssessmentRequest): void {
    this.refuseIfCompleted();
    if (!(REVIEW_VERDICTS as readonly unknown[]).includes(request?.verdict)) {
      refuse('INVALID_REVIEW_REQUEST', `verdict must be one of: ${REVIEW_VERDICTS.join(', ')}`);
    }
    const notes = request.notes;
    if (typeof notes !== 'string' || notes.trim().length === 0 || notes.length > MAX_NOTES_LENGTH) {
      refuse('INVALID_REVIEW_REQUEST', `notes must be 1-${MAX_NOTES_LENGTH} characters and not blank`);
    }
    const groups = requireGroups(request.groups);
    const holder = this.checkClaimHolder(request.reviewer, 'complete');
    // A request without groups comes from before groups existed, when every stage had none.
    if (request.groups !== undefined) this.refuseOutsideGroup(groups);
    if (request.verdict === 'approved') this.refuseSecondApproval(holder);
  }

  /**
   * Approval of the last stage completes the assessment approved; any other verdict ends the
   * pipeline with it. A four-eyes stage with one approval so far waits for another reviewer's claim.
   */
  complete(request: CompleteAssessmentRequest, now: Date): AssessmentReviewSnapshot {
    this.checkComplete(request);
    const stage = this.active;
    const reviewer = (stage.claim as { reviewer: string }).reviewer;
    stage.reviews.push({ reviewer, verdict: request.verdict, notes: request.notes, at: now.toISOString() });
    stage.claim = undefined;
    if (request.verdict !== 'approved') {
      stage.end(request.verdict, now);
      for (const later of this.stages.slice(this.activeIndex + 1)) later.end('skipped', now);
      return this.finish({ verdict: request.verdict, notes: request.notes, reviewer, completed_at: now.toISOString() }, now);
    }
    if (stage.distinctApprovals < stage.definition.approvalsRequired) {
      this.moveTo('under_review', now);
      return this.snapshot();
    }
    stage.end('approved', now);
    if (this.activeIndex === this.stages.length - 1) {
      return this.finish({ verdict: 'approved', notes: request.notes, reviewer, completed_at: now.toISOString() }, now);
    }
    this.activeIndex++;
    this.active.start(now);
    this.moveTo('under_review', now);
    return this.snapshot();
  }

  checkRelease(request: ReleaseAssessmentRequest): void {
    this.refuseIfCompleted();
    this.checkClaimHolder(request?.reviewer, 'release');
  }

  /** Back to the stage's queue: its claim deadline starts again. */
  release(request: ReleaseAssessmentRequest, now: Date): AssessmentReviewSnapshot {
    this.checkRelease(request);
    this.active.claim = undefined;
    this.moveTo(this.options.releaseReturnsToSubmitted ? 'submitted' : 'under_review', now);
    return this.snapshot();
  }

  currentWait(): ReviewWait {
    const stage = this.active.definition;
    const claimed = this.active.claim !== undefined;
    return {
      transition: this.transition,
      dueAtMs: this.phaseStartedAtMs + (claimed ? stage.reviewWithinMs : stage.claimWithinMs),
      overdueKind: claimed ? 'review_overdue' : 'claim_overdue',
    };
  }

  hasMovedSince(wait: ReviewWait): boolean {
    return this.transition !== wait.transition;
  }

  /** Records that the current wait passed its deadline; once per wait, however often it is called. */
  escalate(wait: ReviewWait, now: Date): void {
    if (this.hasMovedSince(wait) || this.phaseEscalated) return;
    this.phaseEscalated = true;
    this.escalations.push({ kind: wait.overdueKind, at: now.toISOString(), stage: this.active.name });
    this.touch(now);
  }

  snapshot(): AssessmentReviewSnapshot {
    const dueAt = this.isCompleted ? undefined : new Date(this.currentWait().dueAtMs).toISOString();
    const snapshot: AssessmentReviewSnapshot = {
      status: this.status,
      updated_at: this.updatedAt,
      checks_completed: this.checksCompleted,
      escalations: this.escalations.map((escalation) => ({ ...escalation })),
    };
    const claim = this.active.claim;
    if (claim) snapshot.claim = { ...claim };
    if (this.review) snapshot.review = { ...this.review };
    if (dueAt) {
      snapshot.due_at = dueAt;
      snapshot.stage = this.active.name;
    }
    snapshot.stages = this.stages.map((stage) => stage.view(stage.state === 'active' ? dueAt : undefined));
    return snapshot;
  }

  view(): AssessmentView {
    return this.findings ? { ...this.snapshot(), findings: this.findings } : this.snapshot();
  }

  private finish(review: AssessmentReview, now: Date): AssessmentReviewSnapshot {
    this.review = review;
    this.moveTo('completed', now);
    return this.snapshot();
  }

  private refuseOutsideGroup(groups: readonly string[]): void {
    const { name, group } = this.active.definition;
    if (group !== null && !groups.includes(group)) {
      refuse('NOT_IN_STAGE_GROUP', `Stage ${name} is reviewed by group ${group}, which this reviewer is not in`);
    }
  }

  private refuseSecondApproval(reviewer: string): void {
    const stage = this.active;
    if (stage.definition.approvalsRequired > 1 && stage.hasApprovalFrom(reviewer)) {
      refuse('FOUR_EYES', `${reviewer} already approved stage ${stage.name}; four-eyes needs its second approval from a different reviewer`);
    }
    if (!this.pipeline.distinctApproversAcrossStages) return;
    const earlier = this.stages.find((other) => other !== stage && other.hasApprovalFrom(reviewer));
    if (earlier) {
      refuse('FOUR_EYES', `${reviewer} already approved stage ${earlier.name} of this assessment; each stage needs a different approver`);
    }
  }

  private checkClaimHolder(reviewer: unknown, action: 'complete' | 'release'): string {
    const named = requireReviewer(reviewer, false);
    const claim = this.active.claim;
    if (!claim) refuse('NOT_CLAIMED', `Nobody has claimed this assessment; claim it before you ${action} it`);
    if (named !== undefined && named !== claim.reviewer) {
      refuse('CLAIMED_BY_ANOTHER_REVIEWER', `Claimed by ${claim.reviewer}, not ${named}; only they can ${action} it`);
    }
    return claim.reviewer;
  }

  private refuseIfCompleted(): void {
    const review = this.review;
    if (review) {
      refuse('ALREADY_COMPLETED', alreadyCompletedMessage(review));
    }
  }

  private moveTo(status: AssessmentStatus, now: Date): void {
    this.status = status;
    this.transition++;
    this.phaseStartedAtMs = now.getTime();
    this.phaseEscalated = false;
    this.touch(now);
  }

  private touch(now: Date): void {
    this.updatedAt = now.toISOString();
  }
}

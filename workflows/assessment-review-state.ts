import { ApplicationFailure } from '@temporalio/common';
import {
  MAX_NOTES_LENGTH,
  MAX_REVIEWER_LENGTH,
  REVIEW_VERDICTS,
  alreadyCompletedMessage,
  type AssessmentClaim,
  type AssessmentEscalation,
  type AssessmentEscalationKind,
  type AssessmentReview,
  type AssessmentReviewSnapshot,
  type AssessmentSla,
  type AssessmentStatus,
  type AssessmentView,
  type ClaimAssessmentRequest,
  type CompleteAssessmentRequest,
  type Finding,
  type ReleaseAssessmentRequest,
  type ReviewRefusalCode,
} from '../src/contract';


const CONTROL_CHARACTERS = /\p{Cc}/u;

/** The wait the workflow is in: for a claim, or for a verdict; both end at the next transition. */
export interface ReviewWait {
  /** Changes on every transition, so a waiter notices a release and re-claim between two wake-ups. */
  transition: number;
  dueAtMs: number;
  overdueKind: AssessmentEscalationKind;
}

/**
 * The review process as a state machine, free of Temporal calls so it can be unit-tested: the
 * workflow feeds it time and requests, and publishes its snapshot. Every `check*` method is an
 * update validator; the matching action runs the same check first, so a refused request can never
 * change state even if it reached the handler.
 */
export class AssessmentReviewState {
  private status: AssessmentStatus = 'submitted';
  private updatedAt: string;
  private checksCompleted = false;
  private findings?: Finding[];
  private claimHolder?: AssessmentClaim;
  private review?: AssessmentReview;
  private readonly escalations: AssessmentEscalation[] = [];
  private transition = 0;
  private phaseStartedAtMs: number;
  private phaseEscalated = false;

  constructor(
    private readonly sla: AssessmentSla,
    submittedAt: Date,
  ) {
    this.updatedAt = submittedAt.toISOString();
    this.phaseStartedAtMs = submittedAt.getTime();
  }

  get isCompleted(): boolean {
    return this.status === 'completed';
  }

  recordFindings(findings: Finding[], now: Date): void {
    this.findings = findings;
    this.checksCompleted = true;
    this.touch(now);
  }

  checkClaim(request: ClaimAssessmentRequest): void {
    this.refuseIfCompleted();
    const reviewer = requireReviewer(request?.reviewer, true);
    if (!this.checksCompleted) refuse('CHECKS_RUNNING', 'The automated checks are still running; claim the assessment once they have finished');
    if (this.claimHolder && this.claimHolder.reviewer !== reviewer) {
      refuse('ALREADY_CLAIMED', `Already claimed by ${this.claimHolder.reviewer} since ${this.claimHolder.claimed_at}; they must release it first`);
    }
  }

  /** Claiming again as the reviewer who holds the claim changes nothing, so a retried claim is harmless. */
  claim(request: ClaimAssessmentRequest, now: Date): AssessmentReviewSnapshot {
    this.checkClaim(request);
    if (!this.claimHolder) {
      this.claimHolder = { reviewer: request.reviewer, claimed_at: now.toISOString() };
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
    this.checkClaimHolder(request.reviewer, 'complete');
  }

  complete(request: CompleteAssessmentRequest, now: Date): AssessmentReviewSnapshot {
    this.checkComplete(request);
    const reviewer = (this.claimHolder as AssessmentClaim).reviewer;
    this.review = { verdict: request.verdict, notes: request.notes, reviewer, completed_at: now.toISOString() };
    this.claimHolder = undefined;
    this.moveTo('completed', now);
    return this.snapshot();
  }

  checkRelease(request: ReleaseAssessmentRequest): void {
    this.refuseIfCompleted();
    this.checkClaimHolder(request?.reviewer, 'release');
  }

  /** Back to the queue: the claim SLA starts again, as for a new submission. */
  release(request: ReleaseAssessmentRequest, now: Date): AssessmentReviewSnapshot {
    this.checkRelease(request);
    this.claimHolder = undefined;
    this.moveTo('submitted', now);
    return this.snapshot();
  }

  currentWait(): ReviewWait {
    const claimed = this.status === 'under_review';
    return {
      transition: this.transition,
      dueAtMs: this.phaseStartedAtMs + (claimed ? this.sla.reviewWithinMs : this.sla.claimWithinMs),
      overdueKind: claimed ? 'review_overdue' : 'claim_overdue',
    };
  }

  hasMovedSince(wait: ReviewWait): boolean {
    return this.transition !== wait.transition;
  }

  /** Records that the current wait passed its SLA; once per wait, however often it is called. */
  escalate(wait: ReviewWait, now: Date): void {
    if (this.hasMovedSince(wait) || this.phaseEscalated) return;
    this.phaseEscalated = true;
    this.escalations.push({ kind: wait.overdueKind, at: now.toISOString() });
    this.touch(now);
  }

  snapshot(): AssessmentReviewSnapshot {
    const snapshot: AssessmentReviewSnapshot = {
      status: this.status,
      updated_at: this.updatedAt,
      checks_completed: this.checksCompleted,
      escalations: [...this.escalations],
    };
    if (this.claimHolder) snapshot.claim = { ...this.claimHolder };
    if (this.review) snapshot.review = { ...this.review };
    if (!this.isCompleted) snapshot.due_at = new Date(this.currentWait().dueAtMs).toISOString();
    return snapshot;
  }

  view(): AssessmentView {
    return this.findings ? { ...this.snapshot(), findings: this.findings } : this.snapshot();
  }

  private checkClaimHolder(reviewer: unknown, action: 'complete' | 'release'): void {
    const named = requireReviewer(reviewer, false);
    if (!this.claimHolder) refuse('NOT_CLAIMED', `Nobody has claimed this assessment; claim it before you ${action} it`);
    if (named !== undefined && named !== this.claimHolder.reviewer) {
      refuse('CLAIMED_BY_ANOTHER_REVIEWER', `Claimed by ${this.claimHolder.reviewer}, not ${named}; only they can ${action} it`);
    }
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

function requireReviewer(value: unknown, required: true): string;
function requireReviewer(value: unknown, required: false): string | undefined;
function requireReviewer(value: unknown, required: boolean): string | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value.trim() !== value || value.length === 0 || value.length > MAX_REVIEWER_LENGTH || CONTROL_CHARACTERS.test(value)) {
    refuse('INVALID_REVIEW_REQUEST', `reviewer must be 1-${MAX_REVIEWER_LENGTH} characters, without surrounding spaces or control characters`);
  }
  return value;
}

function refuse(code: ReviewRefusalCode, message: string): never {
  throw ApplicationFailure.create({ type: code, message, nonRetryable: true });
}

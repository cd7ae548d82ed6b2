import type { AssessmentStage, ReviewStageState } from '../../src/sdk';
import { describeDue, shortTime } from '../format';
import { approvalsOf } from './review-wire';

const STATE_LABELS: Record<ReviewStageState, string> = {
  pending: 'not reached',
  active: 'in review',
  approved: 'approved',
  changes_requested: 'changes requested',
  rejected: 'rejected',
  skipped: 'skipped',
};

/**
 * The assessment's pipeline, stage by stage in order: each one's state, group, approvals so far,
 * who holds it, and every verdict given in it with its notes. The stage under review is marked
 * as the current step, for the eye and for a screen reader.
 */
export function ReviewStages({ stages }: { stages: AssessmentStage[] }) {
  const now = new Date();
  return (
    <section class="pipeline" aria-labelledby="pipeline-title">
      <h2 id="pipeline-title">Review stages</h2>
      <ol class="stages">
        {stages.map((stage, index) => (
          <li key={stage.name} class="stage" data-stage={stage.name} data-state={stage.state} aria-current={stage.state === 'active' ? 'step' : undefined}>
            <div class="stage-head">
              <strong>
                {index + 1}. {stage.name}
              </strong>
              <span class="stage-state" data-testid="stage-state">{STATE_LABELS[stage.state]}</span>
            </div>
            <div class="muted">
              {stage.group ? <>group <code>{stage.group}</code></> : 'any reviewer'} · <span data-testid="approvals">{approvalsOf(stage)} of {stage.approvals_required} approvals</span>
              {stage.approvals_required > 1 ? ' from different reviewers' : ''}
            </div>
            {stage.claim && <div data-testid="stage-claim">Claimed by {stage.claim.reviewer} at {shortTime(stage.claim.claimed_at)}</div>}
            {stage.state === 'active' && stage.due_at && <StageDue dueAt={stage.due_at} claimed={stage.claim !== undefined} now={now} />}
            {stage.reviews.length > 0 && (
              <ul class="stage-reviews" aria-label={`Verdicts in ${stage.name}`}>
                {stage.reviews.map((review, reviewIndex) => (
                  <li key={reviewIndex}>
                    <strong>{review.reviewer}</strong>: {review.verdict.replace('_', ' ')} <span class="muted">at {shortTime(review.at)}</span>
                    {review.notes && <span class="stage-notes">{review.notes}</span>}
                  </li>
                ))}
              </ul>
            )}
            <StageTimes stage={stage} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function StageDue({ dueAt, claimed, now }: { dueAt: string; claimed: boolean; now: Date }) {
  const due = describeDue(dueAt, now);
  return (
    <div>
      {claimed ? 'Verdict' : 'Claim'} due {shortTime(dueAt)} ({due.overdue ? <><strong class="badge overdue-badge">OVERDUE</strong> </> : null}{due.text})
    </div>
  );
}

function StageTimes({ stage }: { stage: AssessmentStage }) {
  if (!stage.started_at && !stage.completed_at) return null;
  return (
    <div class="muted">
      {stage.started_at && <>started {shortTime(stage.started_at)}</>}
      {stage.started_at && stage.completed_at && ' · '}
      {stage.completed_at && <>ended {shortTime(stage.completed_at)}</>}
    </div>
  );
}

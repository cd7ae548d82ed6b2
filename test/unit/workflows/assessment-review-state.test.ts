import { ApplicationFailure } from '@temporalio/common';
import { MAX_NOTES_LENGTH, MAX_REVIEWER_LENGTH, singleStagePipeline, type ReviewPipeline } from '../../../src/contract';
import { AssessmentReviewState } from '../../../workflows/assessment-review-state';
import type { Finding } from '../../../src/contract';

const SUBMITTED_AT = new Date('2030-01-01T00:00:00.000Z');
const HOUR = 60 * 60 * 1000;
const SLA = { claimWithinMs: 48 * HOUR, reviewWithinMs: 120 * HOUR };
const FINDING: Finding = { check: 'bridge_link', severity: 'high', message: 'One link holds it together.', component_ids: ['a', 'b'] };
const PIPELINE_MODE = { releaseReturnsToSubmitted: false };

function newState(pipeline: ReviewPipeline = singleStagePipeline(SLA), options = PIPELINE_MODE): AssessmentReviewState {
  return new AssessmentReviewState(pipeline, SUBMITTED_AT, options);
}

function at(hours: number): Date {
  return new Date(SUBMITTED_AT.getTime() + hours * HOUR);
}

function checkedState(pipeline?: ReviewPipeline, options = PIPELINE_MODE): AssessmentReviewState {
  const state = newState(pipeline, options);
  state.recordFindings([FINDING], at(0));
  return state;
}

function claimedBy(reviewer: string): AssessmentReviewState {
  const state = checkedState();
  state.claim({ reviewer }, at(1));
  return state;
}

function refusal(action: () => unknown): { type: string | undefined | null; message: string } {
  try {
    action();
  } catch (error) {
    if (error instanceof ApplicationFailure) return { type: error.type, message: error.message };
    throw error;
  }
  throw new Error('expected the action to be refused');
}

describe('a new assessment', () => {
  it('is submitted, without findings, due for a claim within the claim SLA', () => {
    const state = newState();
    expect(state.view()).toEqual({
      status: 'submitted',
      updated_at: SUBMITTED_AT.toISOString(),
      checks_completed: false,
      escalations: [],
      due_at: at(48).toISOString(),
      stage: 'review',
      stages: [{ name: 'review', group: null, approvals_required: 1, state: 'active', reviews: [], started_at: SUBMITTED_AT.toISOString(), due_at: at(48).toISOString() }],
    });
  });

  it('cannot be claimed while the automated checks run', () => {
    const state = newState();
    expect(refusal(() => state.checkClaim({ reviewer: 'alice' })).type).toBe('CHECKS_RUNNING');
  });

  it('shows its findings once the checks ran, in the view but not in the snapshot', () => {
    const state = checkedState();
    expect(state.view().findings).toEqual([FINDING]);
    expect(state.snapshot()).not.toHaveProperty('findings');
    expect(state.snapshot().checks_completed).toBe(true);
  });
});

describe('claim', () => {
  it('moves the assessment to under_review, held by the reviewer, due within the review SLA', () => {
    const snapshot = checkedState().claim({ reviewer: 'alice' }, at(1));
    expect(snapshot).toMatchObject({
      status: 'under_review',
      updated_at: at(1).toISOString(),
      claim: { reviewer: 'alice', claimed_at: at(1).toISOString() },
      due_at: at(121).toISOString(),
    });
  });

  it('refuses a second reviewer and names who holds the claim', () => {
    const state = claimedBy('alice');
    expect(refusal(() => state.claim({ reviewer: 'bob' }, at(2)))).toEqual({
      type: 'ALREADY_CLAIMED',
      message: `Already claimed by alice since ${at(1).toISOString()}; they must release it first`,
    });
    expect(state.snapshot().claim?.reviewer).toBe('alice');
  });

  it('accepts the same reviewer again without changing anything', () => {
    const state = claimedBy('alice');
    const before = state.snapshot();
    expect(state.claim({ reviewer: 'alice' }, at(5))).toEqual(before);
  });

  it.each([
    ['an empty name', ''],
    ['surrounding spaces', ' alice '],
    ['a control character', 'ali\nce'],
    ['an over-long name', 'a'.repeat(MAX_REVIEWER_LENGTH + 1)],
    ['no name at all', undefined],
  ])('refuses a reviewer with %s', (_case, reviewer) => {
    expect(refusal(() => checkedState().checkClaim({ reviewer } as never)).type).toBe('INVALID_REVIEW_REQUEST');
  });
});

describe('complete', () => {
  it('records verdict, notes, the claiming reviewer and the time, and ends the wait', () => {
    const state = claimedBy('alice');
    const snapshot = state.complete({ verdict: 'changes_requested', notes: 'Add a second database.' }, at(3));
    expect(snapshot).toEqual({
      status: 'completed',
      updated_at: at(3).toISOString(),
      checks_completed: true,
      review: { verdict: 'changes_requested', notes: 'Add a second database.', reviewer: 'alice', completed_at: at(3).toISOString() },
      escalations: [],
      stages: [
        {
          name: 'review',
          group: null,
          approvals_required: 1,
          state: 'changes_requested',
          reviews: [{ reviewer: 'alice', verdict: 'changes_requested', notes: 'Add a second database.', at: at(3).toISOString() }],
          started_at: SUBMITTED_AT.toISOString(),
          completed_at: at(3).toISOString(),
        },
      ],
    });
    expect(state.isCompleted).toBe(true);
  });

  it('refuses what nobody claimed', () => {
    expect(refusal(() => checkedState().checkComplete({ verdict: 'approved', notes: 'Fine.' }))).toEqual({
      type: 'NOT_CLAIMED',
      message: 'Nobody has claimed this assessment; claim it before you complete it',
    });
  });

  it('refuses a reviewer who does not hold the claim', () => {
    const refused = refusal(() => claimedBy('alice').checkComplete({ verdict: 'approved', notes: 'Fine.', reviewer: 'bob' }));
    expect(refused).toEqual({ type: 'CLAIMED_BY_ANOTHER_REVIEWER', message: 'Claimed by alice, not bob; only they can complete it' });
  });

  it.each([
    ['an unknown verdict', { verdict: 'maybe', notes: 'Hmm.' }],
    ['blank notes', { verdict: 'approved', notes: '  ' }],
    ['missing notes', { verdict: 'approved' }],
    ['over-long notes', { verdict: 'approved', notes: 'n'.repeat(MAX_NOTES_LENGTH + 1) }],
  ])('refuses %s', (_case, request) => {
    expect(refusal(() => claimedBy('alice').checkComplete(request as never)).type).toBe('INVALID_REVIEW_REQUEST');
  });
});

describe('release', () => {
  it('returns the assessment to the queue, still under_review, and restarts the claim clock', () => {
    const state = claimedBy('alice');
    const snapshot = state.release({}, at(10));
    expect(snapshot).toMatchObject({ status: 'under_review', due_at: at(58).toISOString() });
    expect(snapshot).not.toHaveProperty('claim');
    expect(state.currentWait().overdueKind).toBe('claim_overdue');
    expect(state.claim({ reviewer: 'bob' }, at(11)).claim?.reviewer).toBe('bob');
  });

  it('moves an assessment started before pipelines back to submitted, as it did then', () => {
    const state = checkedState(singleStagePipeline(SLA), { releaseReturnsToSubmitted: true });
    state.claim({ reviewer: 'alice' }, at(1));
    expect(state.release({}, at(10))).toMatchObject({ status: 'submitted', due_at: at(58).toISOString() });
  });

  it('refuses what nobody claimed', () => {
    expect(refusal(() => checkedState().checkRelease({})).type).toBe('NOT_CLAIMED');
  });

  it('refuses a named reviewer who does not hold the claim', () => {
    expect(refusal(() => claimedBy('alice').checkRelease({ reviewer: 'bob' })).type).toBe('CLAIMED_BY_ANOTHER_REVIEWER');
  });
});

describe('a completed assessment', () => {
  const completed = () => {
    const state = claimedBy('alice');
    state.complete({ verdict: 'approved', notes: 'Good.' }, at(2));
    return state;
  };

  it.each([
    ['claim', (state: AssessmentReviewState) => state.checkClaim({ reviewer: 'bob' })],
    ['complete', (state: AssessmentReviewState) => state.checkComplete({ verdict: 'rejected', notes: 'No.' })],
    ['release', (state: AssessmentReviewState) => state.checkRelease({})],
    ['a malformed request', (state: AssessmentReviewState) => state.checkClaim(undefined as never)],
  ])('refuses %s, saying how it was completed', (_action, action) => {
    expect(refusal(() => action(completed()))).toEqual({
      type: 'ALREADY_COMPLETED',
      message: `Already completed (approved by alice at ${at(2).toISOString()}); it accepts no further actions`,
    });
  });
});

describe('escalation', () => {
  it('records the overdue kind of the current wait once, and keeps the status', () => {
    const state = checkedState();
    const wait = state.currentWait();
    expect(wait).toMatchObject({ overdueKind: 'claim_overdue', dueAtMs: at(48).getTime() });
    state.escalate(wait, at(48));
    state.escalate(wait, at(49));
    expect(state.snapshot()).toMatchObject({
      status: 'submitted',
      updated_at: at(48).toISOString(),
      escalations: [{ kind: 'claim_overdue', at: at(48).toISOString(), stage: 'review' }],
    });
  });

  it('records review_overdue for a claimed assessment, after an earlier claim_overdue', () => {
    const state = checkedState();
    state.escalate(state.currentWait(), at(48));
    state.claim({ reviewer: 'alice' }, at(50));
    const wait = state.currentWait();
    expect(wait).toMatchObject({ overdueKind: 'review_overdue', dueAtMs: at(170).getTime() });
    state.escalate(wait, at(170));
    expect(state.snapshot().escalations.map((escalation) => escalation.kind)).toEqual(['claim_overdue', 'review_overdue']);
  });

  it('is ignored for a wait that a transition already ended', () => {
    const state = checkedState();
    const wait = state.currentWait();
    state.claim({ reviewer: 'alice' }, at(1));
    expect(state.hasMovedSince(wait)).toBe(true);
    state.escalate(wait, at(48));
    expect(state.snapshot().escalations).toEqual([]);
  });

  it('notices a release and re-claim between two looks at the state', () => {
    const state = claimedBy('alice');
    const wait = state.currentWait();
    state.release({}, at(2));
    state.claim({ reviewer: 'alice' }, at(3));
    expect(state.hasMovedSince(wait)).toBe(true);
    expect(state.currentWait().dueAtMs).toBe(at(123).getTime());
  });
});

const TWO_STAGES: ReviewPipeline = {
  stages: [
    { name: 'network', group: 'network', claimWithinMs: 10 * HOUR, reviewWithinMs: 20 * HOUR, approvalsRequired: 1 },
    { name: 'security', group: 'security', claimWithinMs: 30 * HOUR, reviewWithinMs: 40 * HOUR, approvalsRequired: 2 },
  ],
  distinctApproversAcrossStages: false,
};
const NINA = { reviewer: 'nina', groups: ['network'] };
const SAM = { reviewer: 'sam', groups: ['security'] };
const SARA = { reviewer: 'sara', groups: ['security'] };

function approve(state: AssessmentReviewState, who: { reviewer: string; groups: string[] }, hours: number) {
  state.claim(who, at(hours));
  return state.complete({ verdict: 'approved', notes: `Fine by ${who.reviewer}.`, ...who }, at(hours + 1));
}

describe('a pipeline of stages', () => {
  it('lets only the active stage\'s group claim it', () => {
    const state = checkedState(TWO_STAGES);
    expect(refusal(() => state.checkClaim(SAM))).toEqual({ type: 'NOT_IN_STAGE_GROUP', message: 'Stage network is reviewed by group network, which this reviewer is not in' });
    expect(refusal(() => state.checkClaim({ reviewer: 'old-client' })).type).toBe('NOT_IN_STAGE_GROUP');
    expect(state.claim(NINA, at(1))).toMatchObject({ status: 'under_review', stage: 'network', claim: { reviewer: 'nina' }, due_at: at(21).toISOString() });
  });

  it('moves to the next stage on approval, with that stage\'s claim deadline, never back to submitted', () => {
    const state = checkedState(TWO_STAGES);
    const snapshot = approve(state, NINA, 1);
    expect(snapshot).toMatchObject({ status: 'under_review', stage: 'security', due_at: at(2 + 30).toISOString() });
    expect(snapshot).not.toHaveProperty('claim');
    expect(snapshot.stages?.map((stage) => stage.state)).toEqual(['approved', 'active']);
    expect(snapshot.stages?.[0]).toMatchObject({ reviews: [{ reviewer: 'nina', verdict: 'approved' }], completed_at: at(2).toISOString() });
    expect(snapshot.stages?.[1]).toMatchObject({ started_at: at(2).toISOString() });
    expect(refusal(() => state.checkClaim(NINA)).type).toBe('NOT_IN_STAGE_GROUP');
  });

  it('needs a second, different approver on a four-eyes stage, and refuses the same one', () => {
    const state = checkedState(TWO_STAGES);
    approve(state, NINA, 1);
    const once = approve(state, SAM, 3);
    expect(once).toMatchObject({ status: 'under_review', stage: 'security' });
    expect(once.stages?.[1]).toMatchObject({ state: 'active', approvals_required: 2, reviews: [{ reviewer: 'sam', verdict: 'approved' }] });
    expect(refusal(() => state.checkClaim(SAM))).toEqual({
      type: 'FOUR_EYES',
      message: 'sam already approved stage security; four-eyes needs its second approval from a different reviewer',
    });
    const done = approve(state, SARA, 5);
    expect(done).toMatchObject({ status: 'completed', review: { verdict: 'approved', reviewer: 'sara', completed_at: at(6).toISOString() } });
    expect(done.stages?.map((stage) => stage.state)).toEqual(['approved', 'approved']);
    expect(done).not.toHaveProperty('stage');
  });

  it('refuses one reviewer approving two stages when the pipeline wants distinct approvers', () => {
    const both = { reviewer: 'rita', groups: ['network', 'security'] };
    const state = checkedState({ ...TWO_STAGES, distinctApproversAcrossStages: true });
    approve(state, both, 1);
    expect(refusal(() => state.checkClaim(both))).toEqual({
      type: 'FOUR_EYES',
      message: 'rita already approved stage network of this assessment; each stage needs a different approver',
    });
    expect(() => state.checkClaim(SAM)).not.toThrow();
  });

  it('ends the pipeline on changes_requested, skipping the later stages', () => {
    const state = checkedState(TWO_STAGES);
    state.claim(NINA, at(1));
    const snapshot = state.complete({ verdict: 'changes_requested', notes: 'Add a firewall.', ...NINA }, at(2));
    expect(snapshot).toMatchObject({ status: 'completed', review: { verdict: 'changes_requested', reviewer: 'nina' } });
    expect(snapshot.stages?.map((stage) => stage.state)).toEqual(['changes_requested', 'skipped']);
    expect(snapshot.stages?.[1]).not.toHaveProperty('completed_at');
  });

  it('names the stage whose deadline passed', () => {
    const state = checkedState(TWO_STAGES);
    approve(state, NINA, 1);
    state.escalate(state.currentWait(), at(40));
    expect(state.snapshot().escalations).toEqual([{ kind: 'claim_overdue', at: at(40).toISOString(), stage: 'security' }]);
  });

  it('refuses a verdict from a member who left the stage\'s group since the claim', () => {
    const state = checkedState(TWO_STAGES);
    state.claim(NINA, at(1));
    expect(refusal(() => state.checkComplete({ verdict: 'approved', notes: 'Fine.', reviewer: 'nina', groups: [] })).type).toBe('NOT_IN_STAGE_GROUP');
  });
});

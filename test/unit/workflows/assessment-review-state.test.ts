import { ApplicationFailure } from '@temporalio/common';
import { MAX_NOTES_LENGTH, MAX_REVIEWER_LENGTH } from '../../../src/contract';
import { AssessmentReviewState } from '../../../workflows/assessment-review-state';
import type { Finding } from '../../../src/contract';

const SUBMITTED_AT = new Date('2030-01-01T00:00:00.000Z');
const HOUR = 60 * 60 * 1000;
const SLA = { claimWithinMs: 48 * HOUR, reviewWithinMs: 120 * HOUR };
const FINDING: Finding = { check: 'bridge_link', severity: 'high', message: 'One link holds it together.', component_ids: ['a', 'b'] };

function at(hours: number): Date {
  return new Date(SUBMITTED_AT.getTime() + hours * HOUR);
}

function checkedState(): AssessmentReviewState {
  const state = new AssessmentReviewState(SLA, SUBMITTED_AT);
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
    const state = new AssessmentReviewState(SLA, SUBMITTED_AT);
    expect(state.view()).toEqual({
      status: 'submitted',
      updated_at: SUBMITTED_AT.toISOString(),
      checks_completed: false,
      escalations: [],
      due_at: at(48).toISOString(),
    });
  });

  it('cannot be claimed while the automated checks run', () => {
    const state = new AssessmentReviewState(SLA, SUBMITTED_AT);
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
  it('returns the assessment to the queue and restarts the claim clock', () => {
    const state = claimedBy('alice');
    const snapshot = state.release({}, at(10));
    expect(snapshot).toMatchObject({ status: 'submitted', due_at: at(58).toISOString() });
    expect(snapshot).not.toHaveProperty('claim');
    expect(state.claim({ reviewer: 'bob' }, at(11)).claim?.reviewer).toBe('bob');
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
      escalations: [{ kind: 'claim_overdue', at: at(48).toISOString() }],
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

import { indexRow, placementOf, samePlacement } from '../../../../src/api/review/review-placement';
import type { AssessmentReviewSnapshot } from '../../../../src/contract';
import { reviewStage } from '../../../support/review-stage';

const INDEXED_DUE_AT = '2030-01-03T09:00:00.000Z';
/** What the index holds before the workflow published anything. */
const INDEXED = { dueAt: INDEXED_DUE_AT, stage: 'network', stageGroup: 'net' };
/** A state published before pipelines: no stages, its one stage was the default. */
const LEGACY_STAGE = { stage: 'review', stageGroup: null };
const submitted: AssessmentReviewSnapshot = { status: 'submitted', updated_at: '2030-01-01T09:00:01.000Z', checks_completed: true, escalations: [], due_at: '2030-01-03T09:00:00.004Z' };
const claimed: AssessmentReviewSnapshot = {
  ...submitted,
  status: 'under_review',
  updated_at: '2030-01-01T10:00:00.000Z',
  claim: { reviewer: 'alice', claimed_at: '2030-01-01T10:00:00.000Z' },
  due_at: '2030-01-06T10:00:00.000Z',
};
const completed: AssessmentReviewSnapshot = {
  status: 'completed',
  updated_at: '2030-01-02T08:00:00.000Z',
  checks_completed: true,
  escalations: [],
  review: { verdict: 'approved', notes: 'Fine.', reviewer: 'alice', completed_at: '2030-01-02T08:00:00.000Z' },
};

describe('where the workflow puts an assessment in the queue', () => {
  it("keeps the index's deadline until the checks ran and the workflow published one", () => {
    expect(placementOf({ state: undefined, closeTime: undefined }, INDEXED)).toEqual({ ...INDEXED, claimedBy: null, closedAt: null });
    expect(placementOf({ state: submitted, closeTime: undefined }, INDEXED)).toEqual({ dueAt: submitted.due_at, claimedBy: null, closedAt: null, ...LEGACY_STAGE });
  });

  it('follows a claim with its holder and the verdict deadline', () => {
    expect(placementOf({ state: claimed, closeTime: undefined }, INDEXED)).toEqual({ dueAt: claimed.due_at, claimedBy: 'alice', closedAt: null, ...LEGACY_STAGE });
  });

  it('takes a completed review out of the queue at its completion, before and after the run closes', () => {
    const closeTime = new Date('2030-01-02T08:00:00.250Z');
    expect(placementOf({ state: completed, closeTime: undefined }, INDEXED)).toEqual({ dueAt: INDEXED_DUE_AT, claimedBy: null, closedAt: completed.updated_at, stage: null, stageGroup: null });
    expect(placementOf({ state: completed, closeTime }, INDEXED).closedAt).toBe(completed.updated_at);
  });

  it('takes a run closed otherwise (terminated, timed out) out of the queue at its close', () => {
    const closeTime = new Date('2030-01-02T07:00:00.000Z');
    expect(placementOf({ state: claimed, closeTime }, INDEXED)).toEqual({ dueAt: claimed.due_at, claimedBy: 'alice', closedAt: closeTime.toISOString(), ...LEGACY_STAGE });
  });

  it('tells a row that needs moving from one that does not', () => {
    const placement = placementOf({ state: claimed, closeTime: undefined }, INDEXED);
    expect(samePlacement(placement, { ...placement })).toBe(true);
    expect(samePlacement(placement, { ...placement, stage: 'security' })).toBe(false);
    expect(samePlacement(placement, { ...placement, stageGroup: 'sec' })).toBe(false);
    expect(samePlacement(placement, { ...placement, claimedBy: 'bob' })).toBe(false);
    expect(samePlacement(placement, { ...placement, dueAt: INDEXED_DUE_AT })).toBe(false);
    expect(samePlacement(placement, { ...placement, closedAt: completed.updated_at })).toBe(false);
  });
});

describe('the active stage of a pipeline', () => {
  const inSecurity: AssessmentReviewSnapshot = {
    ...claimed,
    stage: 'security',
    stages: [reviewStage('network', 'net', 'approved'), reviewStage('security', 'sec', 'active'), reviewStage('final', null, 'pending')],
  };

  it('is the stage the state names, with its group', () => {
    expect(placementOf({ state: inSecurity, closeTime: undefined }, INDEXED)).toMatchObject({ stage: 'security', stageGroup: 'sec' });
    const inFinal = { ...inSecurity, stage: 'final' };
    expect(placementOf({ state: inFinal, closeTime: undefined }, INDEXED)).toMatchObject({ stage: 'final', stageGroup: null });
  });

  it('is none once the pipeline completed', () => {
    const done: AssessmentReviewSnapshot = { ...completed, stages: inSecurity.stages };
    expect(placementOf({ state: done, closeTime: undefined }, INDEXED)).toMatchObject({ stage: null, stageGroup: null });
  });
});

describe('a new row', () => {
  it('is due the claim SLA after its creation until the workflow says otherwise', () => {
    const row = indexRow('test', { organizationId: 'acme', assessmentId: 'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA' }, '2030-01-01T09:00:00.000Z', { claimWithinMs: 2 * 86_400_000 }, { state: undefined, closeTime: undefined });
    expect(row).toEqual({
      environment: 'test',
      organizationId: 'acme',
      assessmentId: 'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA',
      createdAt: '2030-01-01T09:00:00.000Z',
      dueAt: '2030-01-03T09:00:00.000Z',
      claimedBy: null,
      closedAt: null,
      stage: null,
      stageGroup: null,
    });
  });

  it("takes the first stage's claim deadline, name and group when the creator knows the pipeline", () => {
    const firstStage = { name: 'network', group: 'net', claimWithinMs: 3_600_000, reviewWithinMs: 1, approvalsRequired: 1 as const };
    const row = indexRow('live', { organizationId: 'acme', assessmentId: 'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA' }, '2030-01-01T09:00:00.000Z', firstStage, { state: undefined, closeTime: undefined });
    expect(row).toMatchObject({ environment: 'live', dueAt: '2030-01-01T10:00:00.000Z', stage: 'network', stageGroup: 'net' });
  });
});

import { ReviewerSight } from '../../../../src/api/review/reviewer-sight';
import type { Reviewer } from '../../../../src/api/platform/reviewers/reviewer-authenticator';
import { AppConfig, InvalidConfigError } from '../../../../src/common/config/app-config';
import type { AssessmentReviewSnapshot, AssessmentStage } from '../../../../src/contract';
import { reviewStage } from '../../../support/review-stage';

/** Production reviews in three stages: network's group, then security's, then one anyone may act on; the sandbox keeps the default single stage. */
const PIPELINES = JSON.stringify({ live: { stages: [{ name: 'network', group: 'net' }, { name: 'security', group: 'sec' }, { name: 'final' }] } });

const reviewer = (name: string, groups: string[], environment: Reviewer['environment'] = 'live'): Reviewer => ({ reviewerId: `rvw_${name}`, name, environment, groups });
const nina = reviewer('nina', ['net']);
const sam = reviewer('sam', ['sec', 'audit']);
const paul = reviewer('paul', []);

const sight = (settings: Record<string, string> = {}) => new ReviewerSight(new AppConfig({ REVIEW_PIPELINES: PIPELINES, ...settings }));

function stateWith(status: AssessmentReviewSnapshot['status'], stages: AssessmentStage[]): AssessmentReviewSnapshot {
  const active = stages.find((candidate) => candidate.state === 'active');
  return { status, updated_at: '2030-01-01T09:00:00.000Z', checks_completed: true, escalations: [], ...(active ? { stage: active.name } : {}), stages };
}
const inNetwork = stateWith('submitted', [reviewStage('network', 'net', 'active'), reviewStage('security', 'sec', 'pending'), reviewStage('final', null, 'pending')]);
const inSecurity = stateWith('under_review', [reviewStage('network', 'net', 'approved'), reviewStage('security', 'sec', 'active'), reviewStage('final', null, 'pending')]);
const inFinal = stateWith('under_review', [reviewStage('network', 'net', 'approved'), reviewStage('security', 'sec', 'approved'), reviewStage('final', null, 'active')]);
const rejectedInNetwork = stateWith('completed', [reviewStage('network', 'net', 'rejected'), reviewStage('security', 'sec', 'skipped'), reviewStage('final', null, 'skipped')]);
const approved = stateWith('completed', [reviewStage('network', 'net', 'approved'), reviewStage('security', 'sec', 'approved'), reviewStage('final', null, 'approved')]);
/** Where the index puts an assessment before its workflow published a state: the first stage. */
const INDEXED_AT_NETWORK = { stageGroup: 'net' };

const whoSees = (state: AssessmentReviewSnapshot | undefined, judge = sight()) =>
  [nina, sam, paul].filter((candidate) => judge.sees(candidate, state, INDEXED_AT_NETWORK)).map((candidate) => candidate.name);

describe('which assessments a reviewer sees', () => {
  it('shows one at a stage to its group, and keeps it from the groups of later stages and from reviewers of none', () => {
    expect(whoSees(inNetwork)).toEqual(['nina']);
  });

  it('shows it to the groups of the stages it reached, past ones too, and to everyone once it reaches a stage without a group', () => {
    expect(whoSees(inSecurity)).toEqual(['nina', 'sam']);
    expect(whoSees(inFinal)).toEqual(['nina', 'sam', 'paul']);
    expect(whoSees(approved)).toEqual(['nina', 'sam', 'paul']);
  });

  it('keeps one whose review ended before a stage from that stage’s group', () => {
    expect(whoSees(rejectedInNetwork)).toEqual(['nina']);
  });

  it('places one whose checks still run at the stage the index holds, its first', () => {
    expect(whoSees(undefined)).toEqual(['nina']);
    expect(sight().sees(paul, undefined, { stageGroup: null })).toBe(true);
  });

  it('keeps one whose checks still run from everyone when the index holds no row to place it by', () => {
    expect([nina, sam, paul].filter((candidate) => sight().sees(candidate, undefined, undefined))).toEqual([]);
    expect(sight({ REVIEWERS_SEE_ALL_STAGES: 'true' }).sees(paul, undefined, undefined)).toBe(true);
  });

  it('shows a state published before pipelines to every reviewer: its one stage had no group', () => {
    const legacy: AssessmentReviewSnapshot = { status: 'submitted', updated_at: '2030-01-01T09:00:00.000Z', checks_completed: true, escalations: [] };
    expect(whoSees(legacy)).toEqual(['nina', 'sam', 'paul']);
  });

  it('shows every reviewer everything with REVIEWERS_SEE_ALL_STAGES=true', () => {
    const seeingAll = sight({ REVIEWERS_SEE_ALL_STAGES: 'true' });
    for (const state of [inNetwork, rejectedInNetwork, undefined]) expect(whoSees(state, seeingAll)).toEqual(['nina', 'sam', 'paul']);
  });
});

describe("the queue's narrowing in the index", () => {
  it('keeps the stages from the first of the reviewer’s, and the active stages of their groups', () => {
    expect(sight().queueSight(nina)).toEqual({ stages: ['network', 'security', 'final'], groups: ['net'] });
    expect(sight().queueSight(sam)).toEqual({ stages: ['security', 'final'], groups: ['sec', 'audit'] });
    expect(sight().queueSight(paul)).toEqual({ stages: ['final'], groups: [] });
  });

  it("follows the reviewer's environment: the sandbox's one stage has no group", () => {
    expect(sight().queueSight(reviewer('sam', ['sec'], 'test'))).toEqual({ stages: ['review'], groups: ['sec'] });
  });

  it('narrows nothing with REVIEWERS_SEE_ALL_STAGES=true', () => {
    expect(sight({ REVIEWERS_SEE_ALL_STAGES: 'true' }).queueSight(paul)).toBeUndefined();
  });
});

describe('REVIEWERS_SEE_ALL_STAGES', () => {
  it('is off by default, and accepts only true or false', () => {
    expect(new AppConfig({}).values.REVIEWERS_SEE_ALL_STAGES).toBe(false);
    expect(new AppConfig({ REVIEWERS_SEE_ALL_STAGES: 'false' }).values.REVIEWERS_SEE_ALL_STAGES).toBe(false);
    expect(new AppConfig({ REVIEWERS_SEE_ALL_STAGES: 'true' }).values.REVIEWERS_SEE_ALL_STAGES).toBe(true);
    expect(() => new AppConfig({ REVIEWERS_SEE_ALL_STAGES: 'yes' })).toThrow(InvalidConfigError);
  });
});

import { AppConfig, InvalidConfigError } from '../../../../src/common/config/app-config';
import { parseReviewPipelines } from '../../../../src/common/config/review-pipelines';
import { singleStagePipeline } from '../../../../src/contract';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const SLA = { claimWithinMs: 2 * DAY, reviewWithinMs: 5 * DAY };

const networkThenSecurity = {
  stages: [
    { name: 'network', group: 'network', claim_within: '1 day', review_within: '3 days' },
    { name: 'security', group: 'security', claim_within: '12h', review_within: '2 days', four_eyes: true },
  ],
  distinct_approvers: true,
};

function problemsOf(text: string): string {
  try {
    parseReviewPipelines(text, SLA);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`accepted ${text}`);
}

describe('REVIEW_PIPELINES', () => {
  it('gives both environments the single stage with the SLA settings when unset or blank', () => {
    for (const text of [undefined, '', '  ']) {
      expect(parseReviewPipelines(text, SLA)).toEqual({ test: singleStagePipeline(SLA), live: singleStagePipeline(SLA) });
    }
    const config = new AppConfig({ ASSESSMENT_CLAIM_SLA: '36h', ASSESSMENT_REVIEW_SLA: '4 days' });
    expect(config.reviewPipelines.live).toEqual(singleStagePipeline({ claimWithinMs: 36 * HOUR, reviewWithinMs: 4 * DAY }));
  });

  it('reads network then security four-eyes for live, leaving test on the default', () => {
    const pipelines = parseReviewPipelines(JSON.stringify({ live: networkThenSecurity }), SLA);
    expect(pipelines.live).toEqual({
      stages: [
        { name: 'network', group: 'network', claimWithinMs: DAY, reviewWithinMs: 3 * DAY, approvalsRequired: 1 },
        { name: 'security', group: 'security', claimWithinMs: 12 * HOUR, reviewWithinMs: 2 * DAY, approvalsRequired: 2 },
      ],
      distinctApproversAcrossStages: true,
    });
    expect(pipelines.test).toEqual(singleStagePipeline(SLA));
  });

  it('lets a stage leave out its group (anyone reviews), its deadlines (the SLA settings) and four_eyes (one approval)', () => {
    const pipelines = parseReviewPipelines(JSON.stringify({ test: { stages: [{ name: 'triage' }, { name: 'board', group: null, four_eyes: false }] } }), SLA);
    expect(pipelines.test).toEqual({
      stages: [
        { name: 'triage', group: null, claimWithinMs: 2 * DAY, reviewWithinMs: 5 * DAY, approvalsRequired: 1 },
        { name: 'board', group: null, claimWithinMs: 2 * DAY, reviewWithinMs: 5 * DAY, approvalsRequired: 1 },
      ],
      distinctApproversAcrossStages: false,
    });
  });

  it.each([
    ['not JSON', '{test:', /REVIEW_PIPELINES: not valid JSON/],
    ['not an object', '[]', /REVIEW_PIPELINES: must be a JSON object keyed by environment/],
    ['an unknown environment', JSON.stringify({ production: networkThenSecurity }), /REVIEW_PIPELINES: Unrecognized key: "production"/],
    ['no stages', JSON.stringify({ test: { stages: [] } }), /REVIEW_PIPELINES\.test\.stages: must list at least one stage/],
    ['a stage without a name', JSON.stringify({ test: { stages: [{ group: 'network' }] } }), /REVIEW_PIPELINES\.test\.stages\.0\.name: required/],
    ['an uppercase name', JSON.stringify({ test: { stages: [{ name: 'Network' }] } }), /REVIEW_PIPELINES\.test\.stages\.0\.name: must be 1-32 characters/],
    ['a name with a space', JSON.stringify({ test: { stages: [{ name: 'net work' }] } }), /stages\.0\.name: must be 1-32 characters/],
    ['a name over 32 characters', JSON.stringify({ test: { stages: [{ name: 'n'.repeat(33) }] } }), /stages\.0\.name: must be 1-32 characters/],
    ['a bad group name', JSON.stringify({ live: { stages: [{ name: 'network', group: 'Net Ops' }] } }), /REVIEW_PIPELINES\.live\.stages\.0\.group: must be 1-32 characters/],
    ['a duplicate stage name', JSON.stringify({ test: { stages: [{ name: 'network' }, { name: 'security' }, { name: 'network' }] } }), /REVIEW_PIPELINES\.test\.stages\.2\.name: "network" names an earlier stage too/],
    ['a bad duration', JSON.stringify({ test: { stages: [{ name: 'network', claim_within: 'soon' }] } }), /REVIEW_PIPELINES\.test\.stages\.0\.claim_within: must be a duration between 1ms and 365 days/],
    ['a zero duration', JSON.stringify({ test: { stages: [{ name: 'network', review_within: '0s' }] } }), /stages\.0\.review_within: must be a duration/],
    ['a duration over a year', JSON.stringify({ test: { stages: [{ name: 'network', review_within: '400 days' }] } }), /stages\.0\.review_within: must be a duration/],
    ['a number for a duration', JSON.stringify({ test: { stages: [{ name: 'network', claim_within: 3600 }] } }), /stages\.0\.claim_within: must be a duration such as/],
    ['four_eyes as a string', JSON.stringify({ test: { stages: [{ name: 'security', four_eyes: 'yes' }] } }), /REVIEW_PIPELINES\.test\.stages\.0\.four_eyes: must be true or false/],
    ['a misspelt field', JSON.stringify({ test: { stages: [{ name: 'security', fourEyes: true }] } }), /REVIEW_PIPELINES\.test\.stages\.0: Unrecognized key: "fourEyes"/],
    ['distinct_approvers as a string', JSON.stringify({ test: { stages: [{ name: 'a' }], distinct_approvers: 'true' } }), /REVIEW_PIPELINES\.test\.distinct_approvers: must be true or false/],
  ])('refuses %s, naming where', (_case, text, problem) => {
    expect(problemsOf(text)).toMatch(problem);
  });

  it('reports every problem at once', () => {
    const problems = problemsOf(JSON.stringify({ test: { stages: [{ name: 'A' }, { name: 'b', four_eyes: 1 }] }, live: { stages: [] } }));
    expect(problems.split('\n')).toHaveLength(3);
  });

  it('stops the process at start with the setting named', () => {
    const env = { REVIEW_PIPELINES: JSON.stringify({ live: { stages: [{ name: 'network' }, { name: 'network' }] } }) };
    expect(() => new AppConfig(env)).toThrow(InvalidConfigError);
    expect(() => new AppConfig(env)).toThrow(/Invalid configuration:\n {2}REVIEW_PIPELINES\.live\.stages\.1\.name: "network" names an earlier stage too/);
  });
});

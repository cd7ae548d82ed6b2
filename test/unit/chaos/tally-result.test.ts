import { tallyResult } from '../../../chaos/report/tally-result';
import { isClean } from '../../../chaos/report/scenario-result';

const CLEAN_TALLY = { items: 3, succeeded: 3, lost: 0, duplicated: 0, problems: [] };

describe('tallyResult', () => {
  it('a tally with everything done once and no 5xx is a clean row', () => {
    const result = tallyResult('kill the worker', CLEAN_TALLY, { serverErrors: 0, samples: [] }, { notes: ['a note'], recoveryMs: 1200 });
    expect(result).toEqual({ scenario: 'kill the worker', tasks: 3, succeeded: 3, lost: 0, duplicated: 0, serverErrors: 0, recoveryMs: 1200, notes: ['a note'], problems: [] });
    expect(isClean(result)).toBe(true);
  });

  it('lists the tally’s problems, then the scenario’s own, then each 5xx sample', () => {
    const tally = { ...CLEAN_TALLY, succeeded: 2, lost: 1, problems: ['task k1 lost'] };
    const result = tallyResult('soak', tally, { serverErrors: 1, samples: ['GET /v1/ai/tasks/x 500'] }, { notes: [], problems: ['heap grew'] });
    expect(result.problems).toEqual(['task k1 lost', 'heap grew', '5xx: GET /v1/ai/tasks/x 500']);
    expect(result).not.toHaveProperty('recoveryMs');
    expect(isClean(result)).toBe(false);
  });
});

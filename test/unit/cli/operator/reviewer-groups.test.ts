import { InvalidReviewerGroupsError, normalizeReviewerGroups } from '../../../../src/cli/operator/reviewer-service';
import { MAX_REVIEWER_GROUPS } from '../../../../src/contract';

describe('reviewer groups', () => {
  it('keeps names of the group shape, each once, in the order given', () => {
    expect(normalizeReviewerGroups([])).toEqual([]);
    expect(normalizeReviewerGroups(['network', 'sec_ops', 'network', '9-team', 'x'.repeat(32)])).toEqual(['network', 'sec_ops', '9-team', 'x'.repeat(32)]);
  });

  it.each(['', 'Network', '-net', '_net', 'net work', 'net.work', 'x'.repeat(33), 'rés'])('refuses %j', (group) => {
    expect(() => normalizeReviewerGroups(['network', group])).toThrow(InvalidReviewerGroupsError);
  });

  it(`allows at most ${MAX_REVIEWER_GROUPS} distinct groups`, () => {
    const groups = Array.from({ length: MAX_REVIEWER_GROUPS }, (_, index) => `g${index}`);
    expect(normalizeReviewerGroups([...groups, 'g0'])).toEqual(groups);
    expect(() => normalizeReviewerGroups([...groups, 'one-more'])).toThrow(`at most ${MAX_REVIEWER_GROUPS} groups`);
  });
});

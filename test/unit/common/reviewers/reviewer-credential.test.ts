import { generateApiKey, parseApiKey } from '../../../../src/common/keys/api-key';
import { generateReviewerCredential, parseReviewerCredential, visibleReviewerPrefix } from '../../../../src/common/reviewers/reviewer-credential';

describe('reviewer credentials', () => {
  it('parse as reviewer credentials of their environment and never as API keys', () => {
    for (const env of ['test', 'live'] as const) {
      const credential = generateReviewerCredential('assay', env);
      expect(parseReviewerCredential(credential)).toEqual({ brand: 'assay', environment: env });
      expect(parseApiKey(credential)).toBeUndefined();
    }
  });

  it('are never parsed from an API key', () => {
    expect(parseReviewerCredential(generateApiKey('assay', 'test'))).toBeUndefined();
  });

  it('show a prefix that names the environment and six characters of the secret', () => {
    const credential = generateReviewerCredential('assay', 'live');
    expect(visibleReviewerPrefix(credential)).toBe(`${credential.slice(0, 'assay_rvw_live_'.length + 6)}…`);
  });
});

import { hashCredential } from '../../../../src/common/credentials/credential-format';
import { API_KEYS } from '../../../../src/common/keys/api-key';
import { REVIEWER_CREDENTIALS } from '../../../../src/common/reviewers/reviewer-credential';

describe('API key format', () => {
  it('has the <brand>_<env>_<opaque> shape of docs/api.md (Authentication)', () => {
    expect(API_KEYS.format.generate('assay', 'test')).toMatch(/^assay_test_[A-Za-z0-9_-]{32}$/);
    expect(API_KEYS.format.generate('assay', 'live')).toMatch(/^assay_live_[A-Za-z0-9_-]{32}$/);
  });

  it('parses the brand and environment back', () => {
    expect(API_KEYS.format.parse(API_KEYS.format.generate('acme', 'live'))).toEqual({ brand: 'acme', environment: 'live' });
  });

  it.each(['', 'assay_prod_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'assay_test_short', 'assay_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA!'])(
    'rejects %p',
    (key) => {
      expect(API_KEYS.format.parse(key)).toBeUndefined();
    },
  );

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => API_KEYS.format.generate('assay', 'test')));
    expect(keys.size).toBe(1000);
  });

  it('shows only the environment and six secret characters in the prefix', () => {
    const key = 'assay_test_abcdefghijklmnopqrstuvwxyz012345';
    expect(API_KEYS.format.visiblePrefix(key)).toBe('assay_test_abcdef…');
  });
});

describe('reviewer credential format', () => {
  it('has the <brand>_rvw_<env>_<opaque> shape and parses as a reviewer credential of its environment, never as an API key', () => {
    for (const env of ['test', 'live'] as const) {
      const credential = REVIEWER_CREDENTIALS.format.generate('assay', env);
      expect(credential).toMatch(new RegExp(`^assay_rvw_${env}_[A-Za-z0-9_-]{32}$`));
      expect(REVIEWER_CREDENTIALS.format.parse(credential)).toEqual({ brand: 'assay', environment: env });
      expect(API_KEYS.format.parse(credential)).toBeUndefined();
    }
  });

  it('is never parsed from an API key', () => {
    expect(REVIEWER_CREDENTIALS.format.parse(API_KEYS.format.generate('assay', 'test'))).toBeUndefined();
  });

  it('shows a prefix that names the environment and six characters of the secret', () => {
    expect(REVIEWER_CREDENTIALS.format.visiblePrefix('assay_rvw_live_abcdefghijklmnopqrstuvwxyz012345')).toBe('assay_rvw_live_abcdef…');
  });

  it('refuses a prefix of another kind', () => {
    expect(() => REVIEWER_CREDENTIALS.format.visiblePrefix('assay_live_abcdefghijklmnopqrstuvwxyz012345')).toThrow('not a reviewer credential');
  });
});

describe('credential hash', () => {
  it('is SHA-256 of the whole string, as stored by every release', () => {
    expect(hashCredential('x').toString('hex')).toBe('2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881');
  });
});

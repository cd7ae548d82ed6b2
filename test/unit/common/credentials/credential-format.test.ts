import { hashCredential } from '../../../../src/common/credentials/credential-format';
import { API_KEY_FORMAT } from '../../../../src/common/keys/api-key';
import { REVIEWER_CREDENTIAL_FORMAT } from '../../../../src/common/reviewers/reviewer-credential';

describe('API key format', () => {
  it('has the <brand>_<env>_<opaque> shape of docs/api.md (Authentication)', () => {
    expect(API_KEY_FORMAT.generate('assay', 'test')).toMatch(/^assay_test_[A-Za-z0-9_-]{32}$/);
    expect(API_KEY_FORMAT.generate('assay', 'live')).toMatch(/^assay_live_[A-Za-z0-9_-]{32}$/);
  });

  it('parses the brand and environment back', () => {
    expect(API_KEY_FORMAT.parse(API_KEY_FORMAT.generate('acme', 'live'))).toEqual({ brand: 'acme', environment: 'live' });
  });

  it.each(['', 'assay_prod_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'assay_test_short', 'assay_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA!'])(
    'rejects %p',
    (key) => {
      expect(API_KEY_FORMAT.parse(key)).toBeUndefined();
    },
  );

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => API_KEY_FORMAT.generate('assay', 'test')));
    expect(keys.size).toBe(1000);
  });

  it('shows only the environment and six secret characters in the prefix', () => {
    const key = 'assay_test_abcdefghijklmnopqrstuvwxyz012345';
    expect(API_KEY_FORMAT.visiblePrefix(key)).toBe('assay_test_abcdef…');
  });
});

describe('reviewer credential format', () => {
  it('has the <brand>_rvw_<env>_<opaque> shape and parses as a reviewer credential of its environment, never as an API key', () => {
    for (const env of ['test', 'live'] as const) {
      const credential = REVIEWER_CREDENTIAL_FORMAT.generate('assay', env);
      expect(credential).toMatch(new RegExp(`^assay_rvw_${env}_[A-Za-z0-9_-]{32}$`));
      expect(REVIEWER_CREDENTIAL_FORMAT.parse(credential)).toEqual({ brand: 'assay', environment: env });
      expect(API_KEY_FORMAT.parse(credential)).toBeUndefined();
    }
  });

  it('is never parsed from an API key', () => {
    expect(REVIEWER_CREDENTIAL_FORMAT.parse(API_KEY_FORMAT.generate('assay', 'test'))).toBeUndefined();
  });

  it('shows a prefix that names the environment and six characters of the secret', () => {
    expect(REVIEWER_CREDENTIAL_FORMAT.visiblePrefix('assay_rvw_live_abcdefghijklmnopqrstuvwxyz012345')).toBe('assay_rvw_live_abcdef…');
  });

  it('refuses a prefix of another kind', () => {
    expect(() => REVIEWER_CREDENTIAL_FORMAT.visiblePrefix('assay_live_abcdefghijklmnopqrstuvwxyz012345')).toThrow('not a reviewer credential');
  });
});

describe('credential hash', () => {
  it('is SHA-256 of the whole string, as stored by every release', () => {
    expect(hashCredential('x').toString('hex')).toBe('2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881');
  });
});

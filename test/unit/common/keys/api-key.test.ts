import { generateApiKey, hashApiKey, parseApiKey, visiblePrefix } from '../../../../src/common/keys/api-key';

describe('API key format', () => {
  it('has the <brand>_<env>_<opaque> shape of docs/api.md (Authentication)', () => {
    expect(generateApiKey('assay', 'test')).toMatch(/^assay_test_[A-Za-z0-9_-]{32}$/);
    expect(generateApiKey('assay', 'live')).toMatch(/^assay_live_[A-Za-z0-9_-]{32}$/);
  });

  it('parses the brand and environment back', () => {
    expect(parseApiKey(generateApiKey('acme', 'live'))).toEqual({ brand: 'acme', environment: 'live' });
  });

  it.each(['', 'assay_prod_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'assay_test_short', 'assay_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA!'])(
    'rejects %p',
    (key) => {
      expect(parseApiKey(key)).toBeUndefined();
    },
  );

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('assay', 'test')));
    expect(keys.size).toBe(1000);
  });

  it('shows only the environment and six secret characters in the prefix', () => {
    const key = 'assay_test_abcdefghijklmnopqrstuvwxyz012345';
    expect(visiblePrefix(key)).toBe('assay_test_abcdef…');
  });

  it('hashes with SHA-256', () => {
    expect(hashApiKey('x').toString('hex')).toBe('2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881');
  });
});

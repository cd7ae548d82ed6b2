import { parseIdempotencyKey } from '../../../../../src/api/platform/http/idempotency-key';

describe('Idempotency-Key header', () => {
  it('is optional', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
  });

  it('accepts a bare and a quoted key as the same key', () => {
    expect(parseIdempotencyKey('abc-123')).toBe('abc-123');
    expect(parseIdempotencyKey('"abc-123"')).toBe('abc-123');
  });

  it.each(['', '""', 'k'.repeat(256), 'tab\there', 'é-key', ' leading-space'])('rejects %p with 400', (value) => {
    expect(() => parseIdempotencyKey(value)).toThrow(expect.objectContaining({ status: 400, code: 'INVALID_REQUEST' }));
  });

  it('accepts 255 characters', () => {
    expect(parseIdempotencyKey('k'.repeat(255))).toHaveLength(255);
  });
});

import { retryAfterMs } from '../../../../activities/summarize/retry-after';

const NOW = Date.parse('2030-01-01T00:00:00.000Z');

describe('retryAfterMs', () => {
  it.each([
    ['0', 0],
    ['7', 7000],
    [' 120 ', 120_000],
    ['600', 600_000],
  ])('reads delay-seconds %p', (header, millis) => {
    expect(retryAfterMs(header, NOW)).toBe(millis);
  });

  it('reads an HTTP-date in the future as the time until it', () => {
    expect(retryAfterMs('Tue, 01 Jan 2030 00:00:30 GMT', NOW)).toBe(30_000);
    expect(retryAfterMs(new Date(NOW + 90_000).toUTCString(), NOW)).toBe(90_000);
  });

  it('reads an HTTP-date in the past as no wait', () => {
    expect(retryAfterMs('Mon, 31 Dec 2029 23:59:00 GMT', NOW)).toBe(0);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', NOW)).toBe(0);
  });

  it('measures from the real clock when given no time', () => {
    const millis = retryAfterMs(new Date(Date.now() + 60_000).toUTCString());
    expect(millis).toBeGreaterThan(55_000);
    expect(millis).toBeLessThanOrEqual(60_000);
  });

  it.each(['soon', '', '   ', 'in a minute', '1e3', '0x10', 'NaN'])('gives undefined for %p', (header) => {
    expect(retryAfterMs(header, NOW)).toBeUndefined();
  });

  it('gives undefined when there is no header', () => {
    expect(retryAfterMs(null, NOW)).toBeUndefined();
  });

  it('caps a longer wait at 10 minutes, in seconds and as a date', () => {
    expect(retryAfterMs('601', NOW)).toBe(600_000);
    expect(retryAfterMs('86400', NOW)).toBe(600_000);
    expect(retryAfterMs('99999999999999999999', NOW)).toBe(600_000);
    expect(retryAfterMs('Wed, 02 Jan 2030 00:00:00 GMT', NOW)).toBe(600_000);
  });
});

describe('retryAfterMs on values that only look like dates to Date.parse', () => {
  it.each(['1.5', '-5', 'abc 12'])('reads %j as no delay at all', (header) => {
    expect(retryAfterMs(header, Date.parse('2026-11-26T12:00:00Z'))).toBeUndefined();
  });
});

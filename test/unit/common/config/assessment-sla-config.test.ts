import { AppConfig, InvalidConfigError } from '../../../../src/common/config/app-config';

const DAY = 24 * 60 * 60 * 1000;

describe('assessment SLA configuration', () => {
  it('defaults to 2 days to claim and 5 days to complete', () => {
    const { values } = new AppConfig({});
    expect(values.ASSESSMENT_CLAIM_SLA).toBe(2 * DAY);
    expect(values.ASSESSMENT_REVIEW_SLA).toBe(5 * DAY);
  });

  it.each([
    ['36h', 36 * 60 * 60 * 1000],
    ['90s', 90_000],
    ['1 day', DAY],
    ['1500', 1500],
  ])('reads %p as a duration', (value, millis) => {
    expect(new AppConfig({ ASSESSMENT_CLAIM_SLA: value }).values.ASSESSMENT_CLAIM_SLA).toBe(millis);
  });

  it.each(['soon', '', '0s', '-1h', '400 days'])('refuses %p with a message naming the variable', (value) => {
    expect(() => new AppConfig({ ASSESSMENT_REVIEW_SLA: value })).toThrow(InvalidConfigError);
    expect(() => new AppConfig({ ASSESSMENT_REVIEW_SLA: value })).toThrow(/ASSESSMENT_REVIEW_SLA: must be a duration/);
  });
});

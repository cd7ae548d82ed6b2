import { nextDeliveryDelayMs } from '../../../../activities/webhooks/delivery-delay';

const schedule = { initialIntervalMs: 5_000, maximumIntervalMs: 10 * 60 * 60 * 1000, windowMs: 3 * 24 * 60 * 60 * 1000 };
const middle = () => 0.5;

describe('delay between delivery attempts', () => {
  it('grows sixfold from 5 s to the 10 h ceiling', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map((attempt) => nextDeliveryDelayMs(attempt, schedule, undefined, middle));
    expect(delays).toEqual([5_000, 30_000, 180_000, 1_080_000, 6_480_000, 36_000_000, 36_000_000]);
  });

  it('spreads each delay by at most a quarter either way', () => {
    expect(nextDeliveryDelayMs(2, schedule, undefined, () => 0)).toBe(22_500);
    expect(nextDeliveryDelayMs(2, schedule, undefined, () => 1)).toBe(37_500);
  });

  it("uses the receiver's Retry-After instead, within the ceiling and at least a second", () => {
    expect(nextDeliveryDelayMs(1, schedule, 120_000, middle)).toBe(120_000);
    expect(nextDeliveryDelayMs(1, schedule, 0, middle)).toBe(1_000);
    expect(nextDeliveryDelayMs(1, schedule, 7 * 24 * 60 * 60 * 1000, middle)).toBe(schedule.maximumIntervalMs);
  });

  it('fits about a dozen attempts into the 3-day window', () => {
    let elapsed = 0;
    let attempts = 1;
    while (elapsed + nextDeliveryDelayMs(attempts, schedule, undefined, middle) <= schedule.windowMs) {
      elapsed += nextDeliveryDelayMs(attempts, schedule, undefined, middle);
      attempts++;
    }
    expect(attempts).toBe(12);
  });
});

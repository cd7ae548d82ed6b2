import { AdmissionPace } from '../../../workflows/admission-pace';

const PACE = { perMinute: 60, burst: 5 };

describe('AdmissionPace', () => {
  it('gives its burst at once, then one a second', () => {
    const pace = new AdmissionPace(PACE, 0);
    expect(pace.take(100, 0)).toBe(5);
    expect(pace.take(100, 500)).toBe(0);
    expect(pace.take(100, 1_000)).toBe(1);
    expect(pace.take(100, 3_500)).toBe(2);
    expect(pace.take(100, 60_000)).toBe(5);
  });

  it('says since when the items of the next take accrued: the last take that gave any', () => {
    const pace = new AdmissionPace(PACE, 1_000);
    expect(pace.accruingSince).toBe(1_000);
    pace.take(100, 1_000);
    pace.take(100, 1_400);
    // Nothing was given at 1.4 s, so the token given at 2.5 s accrued from the take at 1 s.
    expect(pace.accruingSince).toBe(1_000);
    expect(pace.take(100, 2_500)).toBe(1);
    expect(pace.accruingSince).toBe(2_500);
  });
});

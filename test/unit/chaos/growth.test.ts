import { growthVerdict, quarterMeans } from '../../../chaos/report/growth';

const TEN_PERCENT_OR_8 = { relative: 0.1, absolute: 8 };

describe('quarterMeans', () => {
  it('splits the samples into four consecutive quarters, the uneven ones spread as ⌊4i/n⌋ puts them', () => {
    expect(quarterMeans([1, 2, 3, 4])).toEqual([1, 2, 3, 4]);
    expect(quarterMeans([1, 1, 2, 2, 3, 3, 4, 4])).toEqual([1, 2, 3, 4]);
    expect(quarterMeans([0, 0, 10, 10, 20])).toEqual([0, 10, 10, 20]);
  });

  it('has nothing to say about fewer than four samples', () => {
    expect(quarterMeans([1, 2, 3])).toBeUndefined();
  });
});

describe('growthVerdict', () => {
  it('a figure that keeps rising after warm-up grew', () => {
    const leaking = Array.from({ length: 60 }, (_, minute) => 100 + minute * 2);
    expect(growthVerdict(leaking, TEN_PERCENT_OR_8)).toMatchObject({ grew: true });
  });

  it('a warm-up in the first quarter followed by a plateau did not', () => {
    const warmingUp = Array.from({ length: 60 }, (_, minute) => (minute < 15 ? 50 + minute * 5 : 130 + (minute % 3)));
    expect(growthVerdict(warmingUp, TEN_PERCENT_OR_8)).toMatchObject({ grew: false });
  });

  it('needs both the relative and the absolute rise: 20 % of a small count is noise', () => {
    const smallCount = [30, 30, 30, 30, 30, 30, 36, 36];
    expect(growthVerdict(smallCount, TEN_PERCENT_OR_8)).toMatchObject({ secondQuarterMean: 30, lastQuarterMean: 36, grew: false });
    const large = [300, 300, 300, 300, 300, 300, 340, 340];
    expect(growthVerdict(large, TEN_PERCENT_OR_8)).toMatchObject({ grew: true });
  });

  it('a figure that falls never grew', () => {
    expect(growthVerdict([200, 200, 200, 200, 150, 150, 100, 100], TEN_PERCENT_OR_8)).toMatchObject({ grew: false });
  });
});

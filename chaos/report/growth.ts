/**
 * How far a measure may rise from a run's second quarter to its last before it counts as growing
 * without bound: both by more than `relative` (0.1 = 10 %) and by more than `absolute` in its own
 * unit, so a few descriptors or megabytes of noise on a small figure do not fail a run.
 */
export interface GrowthAllowance {
  relative: number;
  absolute: number;
}

export interface GrowthVerdict {
  secondQuarterMean: number;
  lastQuarterMean: number;
  grew: boolean;
}

/** The means of the four consecutive quarters of `values` (sample i falls in quarter ⌊4i/n⌋); undefined with fewer than 4 values. */
export function quarterMeans(values: readonly number[]): [number, number, number, number] | undefined {
  if (values.length < 4) return undefined;
  const sums = [0, 0, 0, 0];
  const counts = [0, 0, 0, 0];
  values.forEach((value, index) => {
    const quarter = Math.floor((4 * index) / values.length);
    sums[quarter] += value;
    counts[quarter]++;
  });
  const means = sums.map((sum, quarter) => sum / counts[quarter]);
  return [means[0], means[1], means[2], means[3]];
}

/**
 * The first quarter is warm-up (caches filling, JIT, pools opening) and is left out; a measure
 * that still rises from the second quarter to the last is growing with time, not with load.
 */
export function growthVerdict(values: readonly number[], allowance: GrowthAllowance): GrowthVerdict | undefined {
  const means = quarterMeans(values);
  if (!means) return undefined;
  const [, secondQuarterMean, , lastQuarterMean] = means;
  const rise = lastQuarterMean - secondQuarterMean;
  return { secondQuarterMean, lastQuarterMean, grew: rise > allowance.absolute && rise > secondQuarterMean * allowance.relative };
}

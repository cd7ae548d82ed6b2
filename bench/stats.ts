/** The value at quantile q (0..1) of the samples, by the nearest-rank method; NaN when there are none. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

export interface Distribution {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function distribution(samples: readonly number[]): Distribution {
  return {
    count: samples.length,
    p50: quantile(samples, 0.5),
    p90: quantile(samples, 0.9),
    p99: quantile(samples, 0.99),
    max: samples.length === 0 ? Number.NaN : Math.max(...samples),
  };
}

export function median(samples: readonly number[]): number {
  return quantile(samples, 0.5);
}

/** The least, the median and the most of some samples: a few runs' spread. */
export interface Spread {
  min: number;
  p50: number;
  max: number;
}

export function spread(samples: readonly number[]): Spread {
  if (samples.length === 0) return { min: Number.NaN, p50: Number.NaN, max: Number.NaN };
  return { min: Math.min(...samples), p50: median(samples), max: Math.max(...samples) };
}

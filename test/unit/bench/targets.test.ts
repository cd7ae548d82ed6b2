import type { ApiThroughputFigure } from '../../../bench/scenarios/api-throughput';
import type { LatencyFigure } from '../../../bench/scenarios/latency-at-rate';
import type { ThroughputFigure } from '../../../bench/scenarios/throughput';
import { checkClusterTargets, checkTargets, halfRawRate } from '../../../bench/targets';

function throughput(submitsPerSecond: number, completionsPerSecond: number): ThroughputFigure {
  return { tasks: 1000, concurrency: 32, submitPhaseMs: 1, totalMs: 1, submitsPerSecond, completionsPerSecond, failures: 0, costs: [] };
}

function api(submitsPerSecond: number, completionsPerSecond: number): ApiThroughputFigure {
  return { ...throughput(submitsPerSecond, completionsPerSecond), serverCompletionsPerSecond: completionsPerSecond, pollsPerTask: 0, succeededIds: [], failureCauses: {} };
}

function latency(ratePerSecond: number, p50: number, p99: number, finalAtFirstPoll: number): LatencyFigure {
  const endToEndMs = { count: ratePerSecond * 15, p50, p90: p99, p99, max: p99 };
  return {
    ratePerSecond,
    durationMs: 15_000,
    endToEndMs,
    createMs: endToEndMs,
    finalAtFirstPoll,
    pollsPerTask: 1,
    failures: 0,
    arrivalLateP99Ms: 1,
    costs: [],
    elapsedMs: 15_000,
    succeededIds: [],
    slowestIds: [],
  };
}

const byTarget = (checks: { target: string; met: boolean }[]) => Object.fromEntries(checks.map((check) => [check.target, check.met]));

describe('bench targets', () => {
  it("takes issue 29's arrival rate as half the raw engine's completion rate, rounded", () => {
    expect(halfRawRate(throughput(200, 61.4))).toBe(31);
    expect(halfRawRate(throughput(200, 0.4))).toBe(1);
  });

  it("checks the latency targets at 50/s and at half the raw engine's rate, each against its own figure", () => {
    const checks = checkTargets({
      summariser: [],
      raw: throughput(220, 62),
      api: api(200, 55),
      latency: [latency(10, 20, 40, 1), latency(31, 90, 400, 0.995), latency(50, 200, 1200, 0.9)],
      gets: [],
    });
    expect(byTarget(checks)).toEqual({
      'e2e p50 ≤ 150 ms at 50 tasks/s': false,
      'e2e p99 ≤ 1 s at 50 tasks/s': false,
      '≥ 99 % final by the first poll at 50 tasks/s': false,
      "e2e p50 ≤ 150 ms at half the raw engine's completion rate (31 tasks/s)": true,
      "e2e p99 ≤ 1 s at half the raw engine's completion rate (31 tasks/s)": true,
      "≥ 99 % final by the first poll at half the raw engine's completion rate (31 tasks/s)": true,
      'API create rate ≥ 0.9× raw start rate': true,
      'e2e completion rate ≥ 0.85× raw': true,
    });
  });

  it('checks the cluster at half its own raw rate, and its throughput ratios', () => {
    const checks = checkClusterTargets(throughput(100, 20), api(80, 14), [latency(10, 60, 300, 1), latency(25, 100, 900, 1)]);
    expect(byTarget(checks)).toEqual({
      "e2e p50 ≤ 150 ms at half the raw engine's completion rate (10 tasks/s)": true,
      "e2e p99 ≤ 1 s at half the raw engine's completion rate (10 tasks/s)": true,
      "≥ 99 % final by the first poll at half the raw engine's completion rate (10 tasks/s)": true,
      'API create rate ≥ 0.9× raw start rate': false,
      'e2e completion rate ≥ 0.85× raw': false,
    });
  });
});

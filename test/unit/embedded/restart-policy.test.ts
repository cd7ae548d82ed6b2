import { RESTART_LIMITS, RestartPolicy } from '../../../src/embedded/restart-policy';

const SECOND = 1_000;

describe('RestartPolicy', () => {
  test('restarts a first crash after half a second', () => {
    expect(new RestartPolicy().afterCrash(0, 5 * SECOND)).toEqual({ restart: true, delayMs: 500 });
  });

  test('doubles the delay with each crash that follows a short run', () => {
    const policy = new RestartPolicy();
    const delays = [0, 1, 2, 3].map((second) => policy.afterCrash(second * SECOND, SECOND));
    expect(delays).toEqual([500, 1_000, 2_000, 4_000].map((delayMs) => ({ restart: true, delayMs })));
  });

  test('never waits more than 10 s, however many crashes came before', () => {
    const policy = new RestartPolicy();
    // One crash every 20 s: never five within a minute, so it never gives up.
    const delays = Array.from({ length: 8 }, (_, crash) => policy.afterCrash(crash * 20 * SECOND, 15 * SECOND));
    expect(delays.map((decision) => decision.restart && decision.delayMs)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
  });

  test('starts over at half a second once the child ran for a minute', () => {
    const policy = new RestartPolicy();
    policy.afterCrash(0, SECOND);
    policy.afterCrash(2 * SECOND, SECOND);
    expect(policy.afterCrash(63 * SECOND, 60 * SECOND)).toEqual({ restart: true, delayMs: 500 });
  });

  test('gives up on the fifth crash within a minute', () => {
    const policy = new RestartPolicy();
    const decisions = [0, 2, 5, 9, 59].map((second) => policy.afterCrash(second * SECOND, SECOND));
    expect(decisions.slice(0, 4).every((decision) => decision.restart)).toBe(true);
    expect(decisions[4]).toEqual({ restart: false, crashesInWindow: RESTART_LIMITS.maxCrashes });
  });

  test('forgets crashes older than the window', () => {
    const policy = new RestartPolicy();
    for (const second of [0, 2, 5, 9]) policy.afterCrash(second * SECOND, SECOND);
    // The crash at 0 s is a minute old by then: four within the window, not five.
    expect(policy.afterCrash(60 * SECOND, SECOND)).toMatchObject({ restart: true });
  });

  test('takes other limits', () => {
    const policy = new RestartPolicy({ firstDelayMs: 10, maxDelayMs: 30, healthyRunMs: 1_000, maxCrashes: 3, crashWindowMs: 1_000 });
    expect([policy.afterCrash(0, 0), policy.afterCrash(1, 0), policy.afterCrash(2, 0)]).toEqual([
      { restart: true, delayMs: 10 },
      { restart: true, delayMs: 20 },
      { restart: false, crashesInWindow: 3 },
    ]);
  });
});

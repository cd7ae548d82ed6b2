import type { AppConfig } from '../../../../../src/common/config/app-config';
import { MAX_POLL_AFTER_SECONDS, PollPacing } from '../../../../../src/api/platform/waits/poll-pacing';

function pacing(budgetPerSecond: number): PollPacing {
  return new PollPacing({ values: { UNHELD_POLLS_PER_SECOND: budgetPerSecond } } as AppConfig);
}

/** Polls resources `task_0` … `task_{count-1}` once each and returns the last answer's hint. */
function pollEach(paced: PollPacing, count: number): number | undefined {
  let hint: number | undefined;
  for (let index = 0; index < count; index++) hint = paced.pollAfterSeconds(`task_${index}`);
  return hint;
}

beforeEach(() => jest.useFakeTimers({ now: Date.parse('2026-11-27T12:00:00Z') }));
afterEach(() => jest.useRealTimers());

describe('PollPacing', () => {
  it('gives no hint while the pollers fit the budget at the usual interval', () => {
    const paced = pacing(10);
    expect(pollEach(paced, 20)).toBeUndefined();
    expect(paced.pollAfterSeconds('task_0')).toBeUndefined();
  });

  it('asks each poller to wait its share once they are more than the budget allows, up to the cap', () => {
    const paced = pacing(10);
    expect(pollEach(paced, 21)).toBe(3);
    expect(pollEach(paced, 95)).toBe(10);
    expect(pollEach(paced, 10_000)).toBe(MAX_POLL_AFTER_SECONDS);
  });

  it('counts a resource once however often it is polled, and no more once it is final', () => {
    const paced = pacing(10);
    pollEach(paced, 30);
    for (let again = 0; again < 5; again++) expect(pollEach(paced, 30)).toBe(3);
    for (let index = 0; index < 15; index++) paced.forget(`task_${index}`);
    expect(paced.pollAfterSeconds('task_20')).toBeUndefined();
  });

  it('drops pollers not seen for longer than the longest hint and then some', () => {
    const paced = pacing(10);
    pollEach(paced, 100);
    jest.advanceTimersByTime((MAX_POLL_AFTER_SECONDS + 5) * 1000);
    expect(paced.pollAfterSeconds('task_0')).toBe(10);
    jest.advanceTimersByTime(6_000);
    expect(paced.pollAfterSeconds('task_0')).toBeUndefined();
  });
});

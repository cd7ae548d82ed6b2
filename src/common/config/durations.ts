import { msToNumber } from '@temporalio/common/lib/time';
import { z } from 'zod';

const DAY_MS = 24 * 60 * 60 * 1000;

/** An SLA or a retry schedule's interval: ASSESSMENT_CLAIM_SLA, a review stage's deadlines, WEBHOOK_RETRY_*. */
export const slaDuration = durationBetween(1, 365 * DAY_MS, '1ms and 365 days');

/** A duration such as "2 days", "36h" or "90s" (the ms format Temporal uses) within bounds, in milliseconds. */
export function durationBetween(minMs: number, maxMs: number, bounds: string) {
  return z.string().transform((value, context) => {
    const millis = parseDuration(value);
    if (millis === undefined || millis < minMs || millis > maxMs) {
      context.addIssue({ code: 'custom', message: `must be a duration between ${bounds}, such as "2 days", "36h" or "90s"` });
      return z.NEVER;
    }
    return millis;
  });
}

/** A duration in Temporal's ms format ("90s", "5m", "2 days") in milliseconds, or undefined when it is not one. */
export function parseDuration(value: string): number | undefined {
  try {
    return msToNumber(value.trim() as Parameters<typeof msToNumber>[0]);
  } catch {
    return undefined;
  }
}


import { msToNumber } from '@temporalio/common/lib/time';
import { InvalidArgumentError } from 'commander';

/** A grace period longer than this would leave a suspect key alive for too long to call it rotated. */
const MAX_GRACE_MS = 30 * 24 * 60 * 60 * 1000;

/** Parses `--grace`: "90s", "30m", "1h", "2 days" (the duration format Temporal uses), or 0. */
export function parseGracePeriod(value: string): number {
  let ms: number;
  try {
    ms = msToNumber(value.trim() as Parameters<typeof msToNumber>[0]);
  } catch {
    throw new InvalidArgumentError('must be a duration such as 90s, 30m, 1h or "2 days"');
  }
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_GRACE_MS) throw new InvalidArgumentError('must be between 0 and 30 days');
  return ms;
}

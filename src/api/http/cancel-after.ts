import { parseDuration } from '../../common/config/durations';
import { ApiError } from './api-error';

/** A Cancel-After duration in Temporal's ms format: a number and a unit ("90s", "5m", "1.5 hours"). */
export const CANCEL_AFTER_PATTERN = '^\\s*\\d+(\\.\\d+)?\\s*(ms|msecs?|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?)\\s*$';

/** The Cancel-After header (Replicate's name for it) in milliseconds from now. */
export function parseCancelAfter(header: string): number {
  const afterMs = new RegExp(CANCEL_AFTER_PATTERN).test(header) ? parseDuration(header) : undefined;
  if (afterMs === undefined) throw ApiError.invalidRequest('Cancel-After: must be a duration, such as "90s", "5m" or "2h"');
  return afterMs;
}

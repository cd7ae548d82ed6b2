import { parseDuration } from '../../../common/config/durations';
import { ApiError } from './api-error';

/**
 * A Cancel-After duration in Temporal's ms format: a number, spaces, a unit ("90s", "5m", "1.5
 * hours"); exactly what the parser reads, as the one regular expression the document publishes.
 */
export const CANCEL_AFTER_PATTERN = '^[0-9]+(\\.[0-9]+)? *(ms|msecs?|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?)$';

/** The Cancel-After header (Replicate's name for it) in milliseconds from now. */
export function parseCancelAfter(header: string): number {
  const afterMs = new RegExp(CANCEL_AFTER_PATTERN).test(header) ? parseDuration(header) : undefined;
  if (afterMs === undefined) throw ApiError.invalidRequest('Cancel-After: must be a duration, such as "90s", "5m" or "2h"');
  return afterMs;
}

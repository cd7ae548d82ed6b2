// A provider's Retry-After beyond this is taken as this: the workflow's own patience decides
// whether to wait longer.
const LONGEST_RETRY_AFTER_MS = 10 * 60_000;

/** A Retry-After header (delay-seconds or an HTTP-date, RFC 9110 §10.2.3) in milliseconds from now, or undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  // Every HTTP-date form ends in GMT; Date.parse alone would read "1.5" or "-5" as dates.
  const millis = /^\d+$/.test(value) ? Number(value) * 1000 : value.endsWith('GMT') ? Date.parse(value) - now : Number.NaN;
  if (!Number.isFinite(millis)) return undefined;
  return Math.min(Math.max(millis, 0), LONGEST_RETRY_AFTER_MS);
}

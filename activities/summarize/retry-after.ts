// A provider's Retry-After beyond this is taken as this: the workflow's own patience decides
// whether to wait longer.
const LONGEST_RETRY_AFTER_MS = 10 * 60_000;

/** A Retry-After header (delay-seconds or an HTTP-date, RFC 9110 §10.2.3) in milliseconds from now, or undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  const millis = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  if (!Number.isFinite(millis)) return undefined;
  return Math.min(Math.max(millis, 0), LONGEST_RETRY_AFTER_MS);
}

import type { FastifyReply } from 'fastify';

export const MAX_PREFER_WAIT_SECONDS = 60;

/**
 * The `wait` preference of an RFC 7240 Prefer header ("respond-async, wait=10"), capped at 60 s.
 * Anything unreadable is ignored, as the RFC asks of preferences a server does not understand.
 */
export function parsePreferWait(header: string | string[] | undefined): number | undefined {
  const values = Array.isArray(header) ? header : header ? [header] : [];
  for (const preference of values.flatMap((value) => value.split(','))) {
    const match = /^\s*wait\s*=\s*"?(\d{1,6})"?\s*(;.*)?$/i.exec(preference);
    if (match) return Math.min(Number(match[1]), MAX_PREFER_WAIT_SECONDS);
  }
  return undefined;
}

/**
 * Says on the reply that the request was held (RFC 7240 `Preference-Applied`), or, when it was not
 * and the instance paces polls, how long to leave before the next (Retry-After, docs/api.md).
 */
export function applyPreferWait(reply: FastifyReply, answer: { appliedSeconds?: number; pollAfterSeconds?: number }): void {
  if (answer.appliedSeconds !== undefined) void reply.header('preference-applied', `wait=${answer.appliedSeconds}`);
  if (answer.pollAfterSeconds !== undefined) void reply.header('retry-after', String(answer.pollAfterSeconds));
}

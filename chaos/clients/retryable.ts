// Which failed creates a chaos client sends again under the same Idempotency-Key: the ones a
// server that comes back, or has room again, will answer.

/** A 5xx or a 429: the server was away or busy, not the request wrong. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 429;
}

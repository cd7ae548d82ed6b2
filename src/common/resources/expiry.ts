/**
 * When a resource and everything about it (history, Idempotency-Key, webhook delivery records) is
 * gone: Temporal deletes a closed workflow once its namespace's retention has passed. Null while
 * the workflow is open.
 */
export function expiresAt(closedAt: Date | undefined, retentionMs: number): string | null {
  return closedAt ? new Date(closedAt.getTime() + retentionMs).toISOString() : null;
}

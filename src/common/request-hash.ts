import { createHash } from 'node:crypto';

/** SHA-256 of a normalised request, kept in a memo as request_hash to tell an idempotent replay from a reused key. */
export function requestHash(request: unknown): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('hex');
}

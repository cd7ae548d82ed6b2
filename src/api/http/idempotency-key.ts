import { ApiError } from './api-error';

const MAX_LENGTH = 255;
const PRINTABLE_ASCII = /^[\x21-\x7e][\x20-\x7e]*$/;

/**
 * Reads the Idempotency-Key header. The IETF draft sends it as a structured-field string
 * ("quoted"); most clients send it bare. Both name the same key.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) throw ApiError.invalidRequest('Send one Idempotency-Key header, not several');
  const quoted = header.length >= 2 && header.startsWith('"') && header.endsWith('"');
  const key = quoted ? header.slice(1, -1) : header;
  if (key.length === 0 || key.length > MAX_LENGTH || !PRINTABLE_ASCII.test(key)) {
    throw ApiError.invalidRequest(`Idempotency-Key must be 1-${MAX_LENGTH} printable ASCII characters (a UUID is recommended)`);
  }
  return key;
}

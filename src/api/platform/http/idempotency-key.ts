import { ApiError } from './api-error';

const MAX_LENGTH = 255;
// A key: printable ASCII not starting with a space, 1-255 characters.
const KEY = `[\\x21-\\x7e][\\x20-\\x7e]{0,${MAX_LENGTH - 1}}`;

/**
 * Every header value accepted, as the one regular expression the OpenAPI document publishes. The
 * IETF draft sends the key as a structured-field string ("quoted"); most clients send it bare.
 * A bare value that looks quoted (starts and ends with `"`, two characters or more) is read as
 * quoted, so the bare alternatives are those that do not: not starting with `"`, `"` alone, or
 * starting with `"` and ending with something else.
 */
export const IDEMPOTENCY_KEY_PATTERN = `^(?:"${KEY}"|[\\x21\\x23-\\x7e][\\x20-\\x7e]{0,${MAX_LENGTH - 1}}|"|"[\\x20-\\x7e]{0,${MAX_LENGTH - 2}}[\\x20\\x21\\x23-\\x7e])$`;
const IDEMPOTENCY_KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** Reads the Idempotency-Key header: the key, quoted or not, names the same key. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) throw ApiError.invalidRequest('Send one Idempotency-Key header, not several');
  if (!IDEMPOTENCY_KEY.test(header)) {
    throw ApiError.invalidRequest(`Idempotency-Key must be 1-${MAX_LENGTH} printable ASCII characters (a UUID is recommended)`);
  }
  const quoted = header.length >= 2 && header.startsWith('"') && header.endsWith('"');
  return quoted ? header.slice(1, -1) : header;
}

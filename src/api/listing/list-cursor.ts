import { createHash } from 'node:crypto';
import { ApiError } from '../http/api-error';

/**
 * An opaque cursor: Temporal's page token bound to the query it belongs to, so a cursor replayed
 * with other filters (or by another caller) is refused instead of paging something else.
 */
export function encodeCursor(pageToken: Uint8Array, query: string): string {
  return Buffer.from(JSON.stringify({ t: Buffer.from(pageToken).toString('base64'), q: fingerprint(query) })).toString('base64url');
}

export function decodeCursor(cursor: string, query: string): Uint8Array {
  let decoded: { t?: unknown; q?: unknown };
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw ApiError.invalidRequest('cursor: not a cursor this API returned');
  }
  if (typeof decoded?.t !== 'string' || decoded.q !== fingerprint(query)) {
    throw ApiError.invalidRequest('cursor: does not belong to this list and these filters');
  }
  return Buffer.from(decoded.t, 'base64');
}

function fingerprint(query: string): string {
  return createHash('sha256').update(query).digest('base64url').slice(0, 22);
}

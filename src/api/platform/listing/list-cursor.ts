import { createHash, createHmac, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { KeyRing } from '../../../common/crypto/key-ring';
import { ApiError } from '../http/api-error';

// The MAC key is derived from a ring key, never the AES key itself: one key, one purpose.
const MAC_KEY_INFO = 'assay list cursor hmac-sha256 v1';
const MAC_KEY_BYTES = 32;

/** What a cursor carries: the id of the ring key that signed it, the list it pages, the position (Temporal's page token, or the review queue's keyset position). */
interface CursorBody {
  k: string;
  q: string;
  t: string;
}

/**
 * Opaque list cursors, `<body>.<tag>`: the body is base64url JSON holding Temporal's page token
 * (the position) and a fingerprint of the list it pages (the environment and the visibility
 * query: the caller's organisation and filters); the tag is HMAC-SHA256 over the body's exact
 * text. Temporal trusts the page tokens it is handed, so an unauthenticated token a client had
 * edited reached it and came back as a 500; now any edit to either part is refused (400) before
 * Temporal sees it, and a genuine cursor replayed on another list or with other filters is refused
 * too. Keys come from a ring (cursor-key-ring.ts): the newest signs, any key still in the ring
 * verifies, so a rotation does not break the cursors clients hold.
 */
export class ListCursors {
  constructor(private readonly keyRing: KeyRing) {}

  async encode(pageToken: Uint8Array, scope: string): Promise<string> {
    const { id, key } = await this.keyRing.current();
    const body: CursorBody = { k: id, q: fingerprint(scope), t: Buffer.from(pageToken).toString('base64url') };
    const text = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${text}.${tag(key, text).toString('base64url')}`;
  }

  /** The position of a cursor this service issued for this same list; anything else is 400 INVALID_REQUEST. */
  async decode(cursor: string, scope: string): Promise<Uint8Array> {
    const parts = cursor.split('.');
    const body = parts.length === 2 ? parseBody(parts[0]) : undefined;
    if (!body) throw ApiError.invalidRequest('cursor: not a cursor this API returned; pass next_cursor exactly as it came');
    const signer = await this.keyRing.byId(body.k);
    if (!signer || !tagMatches(parts[1], tag(signer.key, parts[0]))) {
      throw ApiError.invalidRequest('cursor: altered, or signed with a key this service no longer holds; list again from the first page');
    }
    if (body.q !== fingerprint(scope)) throw ApiError.invalidRequest('cursor: does not belong to this list and these filters');
    return Buffer.from(body.t, 'base64url');
  }
}

function tag(ringKey: KeyObject, bodyText: string): Buffer {
  const macKey = Buffer.from(hkdfSync('sha256', ringKey, Buffer.alloc(0), MAC_KEY_INFO, MAC_KEY_BYTES));
  return createHmac('sha256', macKey).update(bodyText).digest();
}

/** Compared in constant time; the text must be the tag's one base64url spelling, so no edit of it passes. */
function tagMatches(presented: string, expected: Buffer): boolean {
  const bytes = Buffer.from(presented, 'base64url');
  return bytes.length === expected.length && timingSafeEqual(bytes, expected) && bytes.toString('base64url') === presented;
}

function parseBody(text: string): CursorBody | undefined {
  try {
    const body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<CursorBody> | null;
    return typeof body?.k === 'string' && typeof body.q === 'string' && typeof body.t === 'string' ? (body as CursorBody) : undefined;
  } catch {
    return undefined;
  }
}

function fingerprint(scope: string): string {
  return createHash('sha256').update(scope).digest('base64url').slice(0, 22);
}

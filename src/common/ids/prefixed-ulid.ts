import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import { prefixedIdPattern } from '../../contract/wire/id-patterns';
import { pooledRandomFraction } from './pooled-random';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ULID_LENGTH = 26;

/** A fresh `<prefix><ULID>`: sortable by creation time. */
export function newPrefixedId(prefix: string): string {
  return prefix + ulid(undefined, pooledRandomFraction);
}

/**
 * The id for (organisation, Idempotency-Key): derived, so every retry and every concurrent
 * duplicate names the same workflow and Temporal's id-uniqueness does the deduplication. It has a
 * ULID's shape (128 bits, Crockford base32) but its leading bits are a hash, not a timestamp.
 */
export function derivedPrefixedId(prefix: string, organizationId: string, idempotencyKey: string): string {
  const digest = createHash('sha256').update(`${organizationId}\0${idempotencyKey}`, 'utf8').digest();
  let value = BigInt(`0x${digest.subarray(0, 16).toString('hex')}`);
  let encoded = '';
  for (let i = 0; i < ULID_LENGTH; i++) {
    encoded = CROCKFORD[Number(value & 31n)] + encoded;
    value >>= 5n;
  }
  return prefix + encoded;
}

/** A test for `<prefix><ULID>`, new or derived; anything else is not an id of this kind. */
export function prefixedIdMatcher(prefix: string): (value: string) => boolean {
  const shape = new RegExp(prefixedIdPattern(prefix));
  return (value) => shape.test(value);
}

/** What a kind of id offers, all derived from its prefix. */
export interface IdKind {
  /** A fresh id: sortable by creation time. */
  newId(): string;
  /** The id for (organisation, Idempotency-Key); see derivedPrefixedId. */
  idForIdempotencyKey(organizationId: string, idempotencyKey: string): string;
  /** New or derived; anything else is not an id of this kind. */
  isId(value: string): boolean;
  /** The anchored regular expression the OpenAPI document publishes. */
  pattern: string;
}

export function prefixedIdKind(prefix: string): IdKind {
  return {
    newId: () => newPrefixedId(prefix),
    idForIdempotencyKey: (organizationId, idempotencyKey) => derivedPrefixedId(prefix, organizationId, idempotencyKey),
    isId: prefixedIdMatcher(prefix),
    pattern: prefixedIdPattern(prefix),
  };
}

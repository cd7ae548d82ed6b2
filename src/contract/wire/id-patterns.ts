// A ULID encodes 128 bits in 26 characters, so its first character carries only 3 bits (0-7).
const ULID_SHAPE = '[0-7][0-9A-HJKMNP-TV-Z]{25}';

/** The regular expression (source, anchored) of `<prefix><ULID>`; the OpenAPI document publishes it as the id's pattern. */
export function prefixedIdPattern(prefix: string): string {
  return `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${ULID_SHAPE}$`;
}

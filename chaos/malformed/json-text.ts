import fc from 'fast-check';

/** Any JSON value, as text. */
export const anyJson: fc.Arbitrary<string> = fc.json({ maxDepth: 3 });

/** Keys that reach into prototypes when code copies objects carelessly. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

/** JSON text of a value that is not a string. */
export const nonString: fc.Arbitrary<string> = fc
  .oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }))
  .map((value) => JSON.stringify(value));

/** JSON text of a value that is not an object. */
export const nonObject: fc.Arbitrary<string> = fc
  .oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }))
  .map((value) => JSON.stringify(value));

/** `depth` nested arrays or objects around a value, built iteratively: a recursive serialiser would overflow first. */
export const deeplyNested: fc.Arbitrary<string> = fc
  .record({ depth: fc.integer({ min: 100, max: 200_000 }), kind: fc.constantFrom('array', 'object') })
  .map(({ depth, kind }) => (kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));

const FILLS = ['a', 'é', '漢', '🙂', 'z '];

/** Text of at least `minBytes` UTF-8 bytes (and about `maxBytes` at most): for byte limits. */
export function hugeString(minBytes: number, maxBytes: number): fc.Arbitrary<string> {
  return fc
    .record({ bytes: fc.integer({ min: minBytes, max: maxBytes }), fill: fc.constantFrom(...FILLS) })
    .map(({ bytes, fill }) => fill.repeat(Math.ceil(bytes / Buffer.byteLength(fill))));
}

/** Text of at least `minChars` characters: for length limits. */
export function longString(minChars: number, maxChars: number): fc.Arbitrary<string> {
  return fc.record({ chars: fc.integer({ min: minChars, max: maxChars }), fill: fc.constantFrom(...FILLS) }).map(({ chars, fill }) => fill.repeat(chars));
}

/** An object written out key by key, so keys such as __proto__ survive (an object literal would swallow them). */
export function objectText(entries: ReadonlyArray<readonly [string, string]>): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;
}

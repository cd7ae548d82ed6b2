// Regular expressions that validation applies and the OpenAPI document publishes as `pattern`, so
// each is written in the syntax JavaScript and other languages (a client's, a fuzzer's) read alike:
// explicit ranges, no `\s`, `\p{…}` or lookarounds.

/**
 * Some character String.prototype.trim() would not strip (ECMAScript WhiteSpace and
 * LineTerminator). `\S` would not do: Python's lacks U+FEFF and has U+001C-U+001F.
 */
export const SOME_NON_WHITESPACE = /[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

/** No control character (Unicode category Cc: U+0000-U+001F and U+007F-U+009F). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const NO_CONTROL_CHARACTERS = /^[^\x00-\x1f\x7f-\x9f]*$/;

import { z } from 'zod';

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
const NO_CONTROL_CHARACTERS = /^[^\x00-\x1f\x7f-\x9f]*$/;

/** No control character but tab, line feed and carriage return, which multi-line text is made of. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NO_CONTROL_CHARACTERS_BUT_TABS_AND_LINE_BREAKS = /^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]*$/;

// Every text field the API stores takes one of the two checks below. A NUL cannot be stored in
// PostgreSQL text (a 500 there, while SQLite kept it), and the other controls (escape sequences, a
// backspace) would reach logs, terminals and the console as they are; both are refused at the edge,
// on either database, naming the field.

/** For a one-line field (a name, a label, a description, an attribute): no control character at all. */
export function singleLine() {
  return z.regex(NO_CONTROL_CHARACTERS, { error: 'must not contain control characters (U+0000-U+001F, U+007F-U+009F)' });
}

/** For multi-line text (a task's text, an assessment's context, review notes): tab, line feed and carriage return only. */
export function multiLine() {
  return z.regex(NO_CONTROL_CHARACTERS_BUT_TABS_AND_LINE_BREAKS, { error: 'must not contain control characters other than tab, line feed and carriage return' });
}

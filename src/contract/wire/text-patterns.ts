import { z } from 'zod';

// Regular expressions that validation applies and the OpenAPI document publishes as `pattern`, so
// each is written in the syntax JavaScript and other languages (a client's, a fuzzer's) read alike:
// explicit ranges, no `\s`, `\p{…}` or lookarounds.

/** Control characters (Unicode category Cc). */
const CONTROLS = '\\x00-\\x1f\\x7f-\\x9f';

/** The control characters but tab, line feed and carriage return, which multi-line text is made of. */
const CONTROLS_BUT_TABS_AND_LINE_BREAKS = '\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f';
const TABS_AND_LINE_BREAKS = '\\t\\n\\r';

/**
 * What String.prototype.trim() strips (ECMAScript WhiteSpace and LineTerminator) but the control
 * characters. `\s` would not do: Python's lacks U+FEFF and has U+001C-U+001F.
 */
const SPACES = ' \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/** Text of any characters but the `forbidden` ones (a character class's body). */
function without(forbidden: string): RegExp {
  return new RegExp(`^[^${forbidden}]*$`);
}

/**
 * Text without the `forbidden` characters that is not blank, in one pattern: the spaces it may start
 * with, a character that is neither a space nor a control one, then any it may hold. One pattern
 * rather than a "some non-space" one beside a control-character one: a generator (a fuzzer's, a
 * client's test data) given two patterns draws from one and filters on the other, which for 20,000
 * characters of review notes took three minutes. No backtracking either: the leading spaces and the
 * first other character are disjoint.
 */
function notBlankWithout(forbidden: string, leadingSpaces: string): RegExp {
  return new RegExp(`^[${leadingSpaces}]*[^${CONTROLS}${SPACES}][^${forbidden}]*$`);
}

const NO_CONTROL_CHARACTERS = without(CONTROLS);
const NO_CONTROL_CHARACTERS_BUT_TABS_AND_LINE_BREAKS = without(CONTROLS_BUT_TABS_AND_LINE_BREAKS);
const SINGLE_LINE_NOT_BLANK = notBlankWithout(CONTROLS, SPACES);
const MULTI_LINE_NOT_BLANK = notBlankWithout(CONTROLS_BUT_TABS_AND_LINE_BREAKS, `${SPACES}${TABS_AND_LINE_BREAKS}`);

const SINGLE_LINE_CONTROLS = 'must not contain control characters (U+0000-U+001F, U+007F-U+009F)';
const MULTI_LINE_CONTROLS = 'must not contain control characters other than tab, line feed and carriage return';

// Every text field the API stores takes one of the checks below. A NUL cannot be stored in
// PostgreSQL text (a 500 there, while SQLite kept it), and the other controls (escape sequences, a
// backspace) would reach logs, terminals and the console as they are; both are refused at the edge,
// on either database, naming the field.

/** For a one-line field (a name, a label, a description, an attribute): no control character at all. */
export function singleLine() {
  return z.regex(NO_CONTROL_CHARACTERS, { error: SINGLE_LINE_CONTROLS });
}

/** For multi-line text (an assessment's context): tab, line feed and carriage return only. */
export function multiLine() {
  return z.regex(NO_CONTROL_CHARACTERS_BUT_TABS_AND_LINE_BREAKS, { error: MULTI_LINE_CONTROLS });
}

/** singleLine(), and something in it: `blank` is the message for text that holds nothing but spaces. */
export function singleLineNotBlank(blank: string) {
  return z.regex(SINGLE_LINE_NOT_BLANK, { error: (issue) => (NO_CONTROL_CHARACTERS.test(String(issue.input)) ? blank : SINGLE_LINE_CONTROLS) });
}

/** multiLine(), and something in it: `blank` is the message for text that holds nothing but spaces, tabs and line breaks. */
export function multiLineNotBlank(blank: string) {
  return z.regex(MULTI_LINE_NOT_BLANK, {
    error: (issue) => (NO_CONTROL_CHARACTERS_BUT_TABS_AND_LINE_BREAKS.test(String(issue.input)) ? blank : MULTI_LINE_CONTROLS),
  });
}

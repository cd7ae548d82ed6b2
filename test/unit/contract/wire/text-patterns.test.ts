import fc from 'fast-check';
import { z } from 'zod';
import { multiLineNotBlank, singleLineNotBlank } from '../../../../src/contract/wire/text-patterns';

// The not-blank checks are one pattern each; they must accept exactly what the plain rules say:
// something String.prototype.trim() keeps, and no control character but the ones the field allows.

const BLANK = 'is blank';
const singleLineField = z.string().check(singleLineNotBlank(BLANK));
const multiLineField = z.string().check(multiLineNotBlank(BLANK));

// eslint-disable-next-line no-control-regex -- the rule under test is about control characters
const ANY_CONTROL = /[\x00-\x1f\x7f-\x9f]/;
// eslint-disable-next-line no-control-regex -- the rule under test is about control characters
const CONTROL_BUT_TAB_OR_LINE_BREAK = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/;

/** The message the plain rules give, or null for text they accept. */
function expected(text: string, forbidden: RegExp, controlsMessage: RegExp): string | RegExp | null {
  if (forbidden.test(text)) return controlsMessage;
  return text.trim() === '' ? BLANK : null;
}

function messageOf(field: z.ZodString, text: string): string | null {
  const result = field.safeParse(text);
  return result.success ? null : result.error.issues[0].message;
}

// Characters around the edges the rules draw: every kind of space, the controls, and plain text.
const TRICKY = [' ', '\t', '\n', '\r', '\v', '\f', '\u0000', '\u001b', '\u001c', '\u007f', '\u0085', '\u009f', '\u00a0', '\u1680', '\u2000', '\u200a', '\u200b', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', 'a', 'é', '😀'];
const text = fc.oneof(fc.array(fc.constantFrom(...TRICKY), { maxLength: 8 }).map((chars) => chars.join('')), fc.string({ unit: 'binary', maxLength: 12 }));

it.each([
  ['single-line', singleLineField, ANY_CONTROL, /^must not contain control characters \(U\+0000/],
  ['multi-line', multiLineField, CONTROL_BUT_TAB_OR_LINE_BREAK, /^must not contain control characters other than tab, line feed and carriage return$/],
] as const)('the %s not-blank check accepts and refuses what the plain rules do, with their message', (_kind, field, forbidden, controlsMessage) => {
  fc.assert(
    fc.property(text, (candidate) => {
      const want = expected(candidate, forbidden, controlsMessage);
      const got = messageOf(field, candidate);
      if (want instanceof RegExp) expect(got).toMatch(want);
      else expect(got).toBe(want);
    }),
    { numRuns: 3000 },
  );
});

it.each([
  ['multi-line text with tabs and line breaks around it', multiLineField, '\r\n\tSome text.\n', null],
  ['multi-line text of spaces and line breaks', multiLineField, ' \n\t\u3000\r\n', BLANK],
  ['a single-line label with a tab', singleLineField, 'eu\t1', /^must not contain control characters/],
  ['an empty label', singleLineField, '', BLANK],
  ['a label of no-break spaces', singleLineField, '\u00a0\ufeff', BLANK],
] as const)('%s', (_case, field, candidate, want) => {
  const got = messageOf(field, candidate);
  if (want instanceof RegExp) expect(got).toMatch(want);
  else expect(got).toBe(want);
});

it('publishes one pattern per not-blank field, so a generator needs no filtering to meet it', () => {
  const schema = z.toJSONSchema(z.object({ notes: z.string().max(20_000).check(multiLineNotBlank(BLANK)) }));
  expect(schema.properties?.notes).toEqual({ type: 'string', maxLength: 20_000, pattern: expect.stringMatching(/^\^.*\$$/) });
});

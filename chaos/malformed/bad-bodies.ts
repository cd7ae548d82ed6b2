import fc from 'fast-check';
import { anyJson, deeplyNested, hugeString, longString, nonObject, nonString, objectText, PROTOTYPE_KEYS } from './json-text';

// Bodies each of which the API must refuse: one valid request with exactly one thing broken.

const TEXT = JSON.stringify('The council approved the transit plan. It adds three bus lines.');
const TASK_KEYS = ['task_type', 'input'];
const INPUT_KEYS = ['text', 'max_sentences'];
const MAX_TEXT_BYTES = 512 * 1024;

const unknownKey = (known: string[]) => fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 20 })).filter((key) => !known.includes(key));

function taskBody(taskType: string, input: string, extra: Array<[string, string]> = []): string {
  return objectText([['task_type', taskType], ['input', input], ...extra]);
}

export const badTaskBody: fc.Arbitrary<string> = fc.oneof(
  nonString.map((taskType) => taskBody(taskType, objectText([['text', TEXT]]))),
  fc.string({ maxLength: 50 }).filter((type) => type !== 'summarize').map((type) => taskBody(JSON.stringify(type), objectText([['text', TEXT]]))),
  fc.constantFrom(objectText([['input', objectText([['text', TEXT]])]]), objectText([['task_type', '"summarize"']]), '{}'),
  nonObject.map((input) => taskBody('"summarize"', input)),
  nonString.map((text) => taskBody('"summarize"', objectText([['text', text]]))),
  fc.constantFrom('""', '"   "', '"\\n\\t"', '"\\u00a0"').map((blank) => taskBody('"summarize"', objectText([['text', blank]]))),
  fc
    .oneof(fc.integer({ max: 0 }), fc.integer({ min: 21 }), fc.double({ min: 1.01, max: 19.99 }).filter((n) => !Number.isInteger(n)), fc.string().map((s) => JSON.stringify(s)))
    .map((max) => taskBody('"summarize"', objectText([['text', TEXT], ['max_sentences', String(max)]]))),
  fc.tuple(unknownKey(TASK_KEYS), anyJson).map(([key, value]) => taskBody('"summarize"', objectText([['text', TEXT]]), [[key, value]])),
  fc.tuple(unknownKey(INPUT_KEYS), anyJson).map(([key, value]) => taskBody('"summarize"', objectText([['text', TEXT], [key, value]]))),
  deeplyNested.map((nested) => taskBody('"summarize"', objectText([['text', TEXT], ['nested', nested]]))),
  deeplyNested.map((nested) => taskBody('"summarize"', objectText([['text', nested]]))),
  hugeString(MAX_TEXT_BYTES + 1, MAX_TEXT_BYTES + 64 * 1024).map((text) => taskBody('"summarize"', objectText([['text', JSON.stringify(text)]]))),
  hugeString(1_200_000, 3_000_000).map((text) => taskBody('"summarize"', objectText([['text', JSON.stringify(text)]]))),
  longString(1_000, 100_000).map((type) => taskBody(JSON.stringify(type), objectText([['text', TEXT]]))),
  nonObject,
);

const COMPONENT = objectText([['id', '"web-1"'], ['kind', '"web"'], ['zone', '"a"']]);
const ASSESSMENT_KEYS = ['name', 'context', 'components', 'links'];
const COMPONENT_KEYS = ['id', 'kind', 'zone', 'attributes'];

function assessmentBody(fields: { name?: string; components?: string; links?: string; extra?: Array<[string, string]> }): string {
  const entries: Array<[string, string]> = [];
  if (fields.name !== '') entries.push(['name', fields.name ?? '"Shop"']);
  if (fields.components !== '') entries.push(['components', fields.components ?? `[${COMPONENT}]`]);
  if (fields.links !== '') entries.push(['links', fields.links ?? '[]']);
  return objectText([...entries, ...(fields.extra ?? [])]);
}

const CONTROL = fc.integer({ min: 0, max: 0x1f }).map((code) => `\\u${code.toString(16).padStart(4, '0')}`);

export const badAssessmentBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(assessmentBody({ name: '' }), assessmentBody({ components: '' }), assessmentBody({ links: '' }), '{}'),
  nonString.map((name) => assessmentBody({ name })),
  fc.constantFrom('""', '"   "').map((name) => assessmentBody({ name })),
  CONTROL.map((control) => assessmentBody({ name: `"a${control}b"` })),
  longString(201, 10_000).map((name) => assessmentBody({ name: JSON.stringify(name) })),
  nonObject.filter((value) => !value.startsWith('[')).map((components) => assessmentBody({ components })),
  fc.constant(assessmentBody({ components: '[]' })),
  nonObject.map((component) => assessmentBody({ components: `[${component}]` })),
  fc.tuple(unknownKey(COMPONENT_KEYS), anyJson).map(([key, value]) => assessmentBody({ components: `[${objectText([['id', '"a"'], ['kind', '"web"'], ['zone', '"a"'], [key, value]])}]` })),
  fc.string({ maxLength: 30 }).filter((id) => !/^[A-Za-z0-9._:-]+$/.test(id)).map((id) => assessmentBody({ components: `[${objectText([['id', JSON.stringify(id)], ['kind', '"web"'], ['zone', '"a"']])}]` })),
  fc.constant(assessmentBody({ components: `[${COMPONENT},${COMPONENT}]` })),
  fc.string({ maxLength: 20 }).filter((id) => id !== 'web-1').map((to) => assessmentBody({ links: `[${objectText([['from', '"web-1"'], ['to', JSON.stringify(to)]])}]` })),
  fc.constantFrom('__proto__', 'constructor').map((key) => assessmentBody({ components: `[${objectText([['id', '"a"'], ['kind', '"web"'], ['zone', '"a"'], ['attributes', objectText([[key, key === 'constructor' ? '{"prototype":{"polluted":true}}' : '{"polluted":true}']])]])}]` })),
  fc.integer({ min: 21, max: 60 }).map((count) => assessmentBody({ components: `[${objectText([['id', '"a"'], ['kind', '"web"'], ['zone', '"a"'], ['attributes', objectText(Array.from({ length: count }, (_, i) => [`k${i}`, '1'] as const))]])}]` })),
  anyJson.filter((value) => /^[[{]/.test(value)).map((value) => assessmentBody({ components: `[${objectText([['id', '"a"'], ['kind', '"web"'], ['zone', '"a"'], ['attributes', objectText([['k', value]])]])}]` })),
  fc.constant(assessmentBody({ components: `[${Array.from({ length: 2_001 }, (_, i) => objectText([['id', `"c${i}"`], ['kind', '"web"'], ['zone', '"a"']])).join(',')}]` })),
  fc.tuple(unknownKey(ASSESSMENT_KEYS), anyJson).map(([key, value]) => assessmentBody({ extra: [[key, value]] })),
  deeplyNested.map((nested) => assessmentBody({ extra: [['nested', nested]] })),
  nonObject,
);

export const VALID_TASK_BODY = taskBody('"summarize"', objectText([['text', TEXT]]));
export const VALID_ASSESSMENT_BODY = assessmentBody({});

/**
 * A valid body with its bytes broken: truncated, a raw control character or invalid UTF-8 inside
 * the string value that starts with `insideValue` (so the damage is in data, not in a key).
 */
export function brokenBytes(validBody: string, insideValue: string): fc.Arbitrary<Buffer> {
  const bytes = Buffer.from(validBody, 'utf8');
  const insideValueAt = Buffer.byteLength(validBody.slice(0, validBody.indexOf(insideValue) + 1));
  const insert = (offset: number, inserted: Buffer) => Buffer.concat([bytes.subarray(0, offset), inserted, bytes.subarray(offset)]);
  return fc.oneof(
    fc.integer({ min: 0, max: bytes.length - 1 }).map((cut) => bytes.subarray(0, cut)),
    fc.integer({ min: 0, max: 0x1f }).map((control) => insert(insideValueAt, Buffer.from([control]))),
    fc
      .constantFrom([0x80], [0xbf], [0xc0, 0xaf], [0xc1, 0xbf], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf0, 0x82, 0x82, 0xac], [0xf5, 0x80, 0x80, 0x80], [0xfe], [0xff])
      .map((invalid) => insert(insideValueAt, Buffer.from(invalid))),
    fc.uint8Array({ minLength: 1, maxLength: 200 }).map((random) => Buffer.from(random)).filter((random) => !isJson(random)),
  );
}

function isJson(bytes: Buffer): boolean {
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return true;
  } catch {
    return false;
  }
}

import { parseBatchItems } from '../../../../src/cli/customer/batch-input';
import { CliUsageError } from '../../../../src/cli/exit-codes';

function lines(...values: unknown[]): string {
  return values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join('\n');
}

describe('parseBatchItems', () => {
  test('reads one item a line, skipping blank lines and keying a line without a key by its line number', () => {
    const text = lines({ key: 'doc-1', text: 'First.' }, '', '   ', { text: 'Fourth.', max_sentences: 2 }, '');

    expect(parseBatchItems(text, 'items.jsonl')).toEqual([
      { key: 'doc-1', input: { text: 'First.' } },
      { key: '4', input: { text: 'Fourth.', max_sentences: 2 } },
    ]);
  });

  test('gives the lines without max_sentences the default, and keeps the one a line sets', () => {
    const text = lines({ text: 'One.' }, { text: 'Two.', max_sentences: 1 });

    expect(parseBatchItems(text, 'items.jsonl', 3).map((item) => item.input.max_sentences)).toEqual([3, 1]);
  });

  test('reads Windows line endings', () => {
    expect(parseBatchItems(`{"text":"One."}\r\n{"text":"Two."}\r\n`, 'items.jsonl').map((item) => item.key)).toEqual(['1', '2']);
  });

  test.each([
    ['not JSON', '{"text": "One."', 'items.jsonl line 2: not valid JSON'],
    ['not an object', '["One."]', 'items.jsonl line 2: must be a JSON object'],
    ['without text', { key: 'doc-2' }, 'items.jsonl line 2: "text" must be a string with some non-whitespace text'],
    ['with blank text', { text: ' \t' }, 'items.jsonl line 2: "text" must be'],
    ['with a key holding a space', { key: 'doc 2', text: 'Two.' }, 'items.jsonl line 2: "key" must be 1-128 printable ASCII characters without spaces'],
    ['with a key too long', { key: 'k'.repeat(129), text: 'Two.' }, 'items.jsonl line 2: "key" must be'],
    ['with a numeric key', { key: 2, text: 'Two.' }, 'items.jsonl line 2: "key" must be'],
    ['with max_sentences out of range', { text: 'Two.', max_sentences: 21 }, 'items.jsonl line 2: "max_sentences" must be an integer from 1 to 20'],
    ['with a fractional max_sentences', { text: 'Two.', max_sentences: 1.5 }, 'items.jsonl line 2: "max_sentences" must be'],
    ['with an unknown field', { text: 'Two.', model: 'small' }, 'items.jsonl line 2: unknown field "model"'],
    ['repeating a key', { key: 'doc-1', text: 'Two.' }, `items.jsonl line 2: key "doc-1" is line 1's already`],
  ])('a line %s is a usage error naming its line number', (_case, badLine, message) => {
    const parse = () => parseBatchItems(lines({ key: 'doc-1', text: 'One.' }, badLine), 'items.jsonl');

    expect(parse).toThrow(CliUsageError);
    expect(parse).toThrow(message);
  });

  test('a defaulted key that another line names is a repeat too', () => {
    expect(() => parseBatchItems(lines({ text: 'One.' }, { key: '1', text: 'Two.' }), 'items.jsonl')).toThrow(`items.jsonl line 2: key "1" is line 1's already`);
  });

  test('a file of blank lines is a usage error', () => {
    expect(() => parseBatchItems('\n \n', 'items.jsonl')).toThrow('items.jsonl holds no items');
  });

  test('more items than a batch holds is a usage error', () => {
    const text = Array.from({ length: 10_001 }, () => '{"text":"Same text."}').join('\n');

    expect(() => parseBatchItems(text, 'items.jsonl')).toThrow('items.jsonl holds 10001 items; a batch holds at most 10000');
  });
});

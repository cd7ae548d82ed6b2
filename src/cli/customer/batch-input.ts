import type { BatchItem } from '../../sdk';
import { CliUsageError } from '../exit-codes';

// What POST /v1/ai/batches accepts, checked here as well so that a bad line is named by its line
// number: the service can name only the item's index, which blank lines set apart from it.
const MAX_ITEMS = 10_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,128}$/;
const MAX_SENTENCES = 20;
const LINE_FIELDS = ['key', 'text', 'max_sentences'];

interface BatchLine {
  key?: string;
  text: string;
  max_sentences?: number;
}

/**
 * The items of a JSONL batch file: one `{"key"?, "text", "max_sentences"?}` object a line, blank
 * lines skipped. A line without a key is keyed by its 1-based line number, one without
 * max_sentences takes `defaultMaxSentences` (when given). `source` names the input in errors.
 */
export function parseBatchItems(text: string, source: string, defaultMaxSentences?: number): BatchItem[] {
  const items: BatchItem[] = [];
  const lineOfKey = new Map<string, number>();
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    const lineNumber = index + 1;
    const problem = (what: string) => new CliUsageError(`${source} line ${lineNumber}: ${what}`);
    const { key = String(lineNumber), text: itemText, max_sentences: maxSentences = defaultMaxSentences } = batchLineFrom(line, problem);
    const earlier = lineOfKey.get(key);
    if (earlier !== undefined) throw problem(`key ${JSON.stringify(key)} is line ${earlier}'s already; keys are unique in a batch`);
    lineOfKey.set(key, lineNumber);
    items.push({ key, input: maxSentences === undefined ? { text: itemText } : { text: itemText, max_sentences: maxSentences } });
  }
  if (items.length === 0) throw new CliUsageError(`${source} holds no items: every line is blank`);
  if (items.length > MAX_ITEMS) throw new CliUsageError(`${source} holds ${items.length} items; a batch holds at most ${MAX_ITEMS}`);
  return items;
}

function batchLineFrom(line: string, problem: (what: string) => CliUsageError): BatchLine {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    throw problem(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw problem('must be a JSON object {"key"?, "text", "max_sentences"?}');
  const fields = parsed as Record<string, unknown>;
  const unknownField = Object.keys(fields).find((name) => !LINE_FIELDS.includes(name));
  if (unknownField !== undefined) throw problem(`unknown field ${JSON.stringify(unknownField)}; a line holds "key", "text" and "max_sentences"`);
  const { key, text, max_sentences: maxSentences } = fields;
  if (typeof text !== 'string' || text.trim() === '') throw problem('"text" must be a string with some non-whitespace text');
  if (key !== undefined && (typeof key !== 'string' || !KEY_PATTERN.test(key))) throw problem('"key" must be 1-128 printable ASCII characters without spaces');
  if (maxSentences !== undefined && (typeof maxSentences !== 'number' || !Number.isInteger(maxSentences) || maxSentences < 1 || maxSentences > MAX_SENTENCES)) {
    throw problem(`"max_sentences" must be an integer from 1 to ${MAX_SENTENCES}`);
  }
  return fields as unknown as BatchLine;
}

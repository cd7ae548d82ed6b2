// The default, offline summariser: picks the most salient sentences of the text itself.
// Pure functions, linear in the input: 512 KiB takes a few tens of milliseconds on one core.

import { MAX_SUMMARY_SENTENCES, summarySentenceCount } from './length';
import { salienceScores } from './scoring';
import { joinSentences, selectSentences } from './selection';
import { Sentence, splitSentences } from './sentences';

export { MAX_SUMMARY_SENTENCES } from './length';
export { MAX_SUMMARY_CHARS } from './selection';
export type { Sentence } from './sentences';

export interface ExtractiveOptions {
  /** Fixed summary length in sentences, 1 to 20; adaptive to the text when absent. */
  maxSentences?: number;
}

/**
 * The summary as text: selected sentences in document order.
 * Throws on blank text (Error) and on a maxSentences that is not an integer from 1 to 20 (RangeError).
 */
export function summarizeExtractive(text: string, options: ExtractiveOptions = {}): string {
  return joinSentences(summarySentences(text, options));
}

/** The selected sentences themselves, in document order (the evaluation scores them one per line). */
export function summarySentences(text: string, options: ExtractiveOptions = {}): Sentence[] {
  const { maxSentences } = options;
  if (maxSentences !== undefined && !isValidMaxSentences(maxSentences)) {
    throw new RangeError(`maxSentences must be an integer from 1 to ${MAX_SUMMARY_SENTENCES}`);
  }
  const sentences = splitSentences(text);
  if (sentences.length === 0) throw new Error('cannot summarise blank text');
  const count = summarySentenceCount(text, sentences.length, maxSentences);
  return selectSentences(sentences, salienceScores(sentences.map((sentence) => sentence.text)), count);
}

function isValidMaxSentences(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= MAX_SUMMARY_SENTENCES;
}

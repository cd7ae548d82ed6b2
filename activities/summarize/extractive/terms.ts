// Content terms: what sentence similarity is measured on.

import { UNSPACED_SCRIPT } from './scripts';
import { ENGLISH_STOPWORDS } from './stopwords';

const WORDS = /[\p{L}\p{N}\p{M}]+/gu;
// Addresses would make every sentence that links to the same site look alike.
const URL = /\b(?:https?:\/\/|www\.)\S+/gi;
const MAY_HAVE_URL = /:\/\/|www\./;

/** Lowercased words of the sentence, less URLs, stopwords and single letters; bigrams for unspaced scripts. */
export function contentTerms(sentence: string): string[] {
  const lowercase = sentence.toLowerCase();
  const words = (MAY_HAVE_URL.test(lowercase) ? lowercase.replace(URL, ' ') : lowercase).match(WORDS) ?? [];
  const checkScript = UNSPACED_SCRIPT.test(sentence);
  const terms: string[] = [];
  for (const word of words) {
    // A run of an unspaced script is one regex "word"; character bigrams are the usual unit of
    // overlap for Chinese, Japanese and Thai instead.
    if (checkScript && UNSPACED_SCRIPT.test(word)) {
      pushBigrams(word, terms);
    } else if (word.length > 1 && !ENGLISH_STOPWORDS.has(word)) {
      terms.push(word);
    }
  }
  return terms;
}

function pushBigrams(run: string, terms: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) terms.push(run);
  for (let i = 0; i + 1 < chars.length; i++) terms.push(chars[i] + chars[i + 1]);
}

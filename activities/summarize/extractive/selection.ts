// Choosing which sentences make the summary.

import { endsUnspaced } from './scripts';
import { Sentence } from './sentences';

// Every sentence is at most MAX_SENTENCE_CHARS (400) long, so at least ten sentences fit; the cap
// only bites when a caller asks for many sentences of a text made of long ones.
export const MAX_SUMMARY_CHARS = 4_000;

/**
 * The `count` highest-scoring sentences (earlier first on ties, exact repeats skipped), stopping
 * before the summary would pass MAX_SUMMARY_CHARS; returned in document order.
 */
export function selectSentences(sentences: Sentence[], scores: number[], count: number): Sentence[] {
  const ranked = scores
    .map((score, index) => ({ score, index }))
    .sort((a, b) => b.score - a.score || a.index - b.index);
  const chosen: number[] = [];
  const chosenTexts = new Set<string>();
  let length = 0;
  for (const { index } of ranked) {
    if (chosen.length === count) break;
    const text = sentences[index].text;
    if (chosenTexts.has(text)) continue;
    if (chosen.length > 0 && length + 1 + text.length > MAX_SUMMARY_CHARS) break;
    chosen.push(index);
    chosenTexts.add(text);
    length += (chosen.length > 1 ? 1 : 0) + text.length;
  }
  return chosen.sort((a, b) => a - b).map((index) => sentences[index]);
}

/**
 * Sentences from different lines or paragraphs are joined by a line break; from the same one, by a
 * space, or by nothing after Chinese or Japanese, which puts no space between sentences.
 */
export function joinSentences(sentences: Sentence[]): string {
  return sentences
    .map((sentence, i) => (i === 0 ? sentence.text : separator(sentences[i - 1], sentence) + sentence.text))
    .join('');
}

function separator(previous: Sentence, next: Sentence): string {
  if (previous.block !== next.block) return '\n';
  return endsUnspaced(previous.text) ? '' : ' ';
}

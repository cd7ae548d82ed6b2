// Sentence splitting for the extractive summariser.
//
// Sentence boundaries come from ICU (Intl.Segmenter, built into Node), which knows the terminal
// punctuation of many scripts. Two limits of ICU shape the code around it (a third, abbreviations,
// is handled at the end of this file):
// - V8's segment iterator gets superlinear on long strings (64 KiB takes ~50 ms, 256 KiB ~650 ms),
//   so text is fed to it in pieces of at most ICU_PIECE_CHARS, cut where a sentence likely ends.
// - ICU never breaks before a lowercase word ("x. next"), so lowercased or tokenised text comes back
//   as one huge segment; segments longer than MAX_SENTENCE_CHARS are split further, by punctuation
//   and, failing that, into word windows. This also bounds every sentence, which the summary's
//   length cap relies on.

export const MAX_SENTENCE_CHARS = 400;

const ICU_PIECE_CHARS = 4_000;
const WINDOW_WORDS = 40;

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

export interface Sentence {
  /** Trimmed, non-empty, at most MAX_SENTENCE_CHARS long. */
  text: string;
  /** Index of the line or paragraph it came from, so a summary can keep line structure. */
  block: number;
}

/**
 * Splits text into sentences in document order. Markdown code blocks (``` or ~~~ fences) and
 * table rows are left out, as they are not prose, unless the text has nothing else.
 */
export function splitSentences(text: string): Sentence[] {
  const prose = sentencesOf(textBlocks(text, false));
  return prose.length > 0 ? prose : sentencesOf(textBlocks(text, true));
}

function sentencesOf(blocks: string[]): Sentence[] {
  const sentences: Sentence[] = [];
  blocks.forEach((block, index) => {
    for (const text of mergeAbbreviationBreaks(blockSentences(block))) sentences.push({ text, block: index });
  });
  return sentences;
}

// A block whose only sentence terminal, if any, is its last character is one sentence. Skipping
// ICU for it matters for texts of many short lines, as each call to ICU costs microseconds.
const SENTENCE_TERMINAL = /\p{Sentence_Terminal}/u;

function blockSentences(block: string): string[] {
  const trimmed = block.trim();
  if (!SENTENCE_TERMINAL.test(trimmed.slice(0, -1))) return boundLength(trimmed);
  const sentences: string[] = [];
  for (const piece of icuPieces(block)) {
    for (const segment of segmenter.segment(piece)) {
      for (const sentence of boundLength(segment.segment.trim())) {
        if (sentence !== '') sentences.push(sentence);
      }
    }
  }
  return sentences;
}

const LIST_ITEM = /^\s*(?:[-*+•·◦‣–—]|\d{1,3}[.)]|[a-zA-Z][.)]|#{1,6})\s/;
const LINE_END_CLOSES = /[.!?:;。！？…]["'”’)\]]*\s*$/;
const STARTS_LOWERCASE = /^\s*\p{Ll}/u;
const CODE_FENCE = /^\s*(?:```|~~~)/;
const TABLE_ROW = /^\s*\|/;

/**
 * Lines are units of their own (bullets, headings, meeting notes), except hard-wrapped prose: a line
 * that does not close a sentence, followed by one that starts in lowercase, continues the same text.
 */
function textBlocks(text: string, includeCode: boolean): string[] {
  const blocks: string[] = [];
  let current = '';
  let previousLine = '';
  let inCode = false;
  for (const line of text.split(/\r\n|\r|\n|\u2028|\u2029/)) {
    if (CODE_FENCE.test(line)) inCode = !inCode;
    if ((inCode || CODE_FENCE.test(line) || TABLE_ROW.test(line)) && !includeCode) continue;
    const continues =
      current !== '' && !LINE_END_CLOSES.test(previousLine) && STARTS_LOWERCASE.test(line) && !LIST_ITEM.test(line);
    previousLine = line;
    if (continues) {
      current += ' ' + line.trim();
      continue;
    }
    if (current.trim() !== '') blocks.push(current);
    current = line;
  }
  if (current.trim() !== '') blocks.push(current);
  return blocks;
}

const WHITESPACE = /\s/;
// Terminal punctuation, closing quotes or brackets, then a space; CJK full stops need no space.
const SENTENCE_END = /[.!?…]["'”’)\]]*\s+|[。！？]/g;
const CLAUSE_END = /[;:,，、；：]\s*|\s(?=[-–—]\s)/g;

function icuPieces(block: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (block.length - start > ICU_PIECE_CHARS) {
    const end = cutPoint(block, start, start + ICU_PIECE_CHARS);
    pieces.push(block.slice(start, end));
    start = end;
  }
  pieces.push(block.slice(start));
  return pieces;
}

/** The last sentence end in (start, limit], else the last whitespace, else limit itself. */
function cutPoint(text: string, start: number, limit: number): number {
  const span = text.slice(start, limit);
  let lastEnd = -1;
  for (const match of span.matchAll(SENTENCE_END)) lastEnd = match.index + match[0].length;
  if (lastEnd > 0) return start + lastEnd;
  for (let k = span.length - 1; k > 0; k--) {
    if (WHITESPACE.test(span[k])) return start + k + 1;
  }
  return limit;
}

function boundLength(segment: string): string[] {
  if (segment.length <= MAX_SENTENCE_CHARS) return [segment];
  return splitAfter(segment, SENTENCE_END)
    .map((sentence) => sentence.trim())
    .flatMap((sentence) => (sentence.length <= MAX_SENTENCE_CHARS ? [sentence] : clausePacks(sentence)));
}

/**
 * A sentence too long to keep whole is cut at clause punctuation, and adjacent clauses are packed
 * back together while they fit, so it becomes a few full-size parts rather than many fragments.
 */
function clausePacks(sentence: string): string[] {
  const packs: string[] = [];
  let current = '';
  for (const clause of splitAfter(sentence, CLAUSE_END)) {
    if (clause.trim().length > MAX_SENTENCE_CHARS) {
      packs.push(current.trim(), ...wordWindows(clause.trim()));
      current = '';
    } else if ((current + clause).trim().length > MAX_SENTENCE_CHARS) {
      packs.push(current.trim());
      current = clause;
    } else {
      current += clause;
    }
  }
  packs.push(current.trim());
  return packs.filter((pack) => pack !== '');
}

/** Cuts text after each match of the global pattern; the pieces concatenate back to the text. */
function splitAfter(text: string, pattern: RegExp): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const match of text.matchAll(pattern)) {
    const end = match.index + match[0].length;
    if (end > start) pieces.push(text.slice(start, end));
    start = end;
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}

/** Text with no usable punctuation: windows of words, or of characters for scripts without spaces. */
function wordWindows(text: string): string[] {
  const windows: string[] = [];
  let words: string[] = [];
  let length = -1;
  for (const word of text.split(/\s+/)) {
    for (let i = 0; i < word.length; i += MAX_SENTENCE_CHARS) {
      const chunk = word.slice(i, i + MAX_SENTENCE_CHARS);
      if (words.length === WINDOW_WORDS || length + 1 + chunk.length > MAX_SENTENCE_CHARS) {
        windows.push(words.join(' '));
        words = [];
        length = -1;
      }
      words.push(chunk);
      length += 1 + chunk.length;
    }
  }
  if (words.length > 0) windows.push(words.join(' '));
  return windows;
}

// ICU (as shipped in V8) breaks after every period followed by a capital, so "Dr. Smith" and
// "J. Smith" come back split. A break after a title or an initial is undone here.
const TITLES = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'st', 'mt', 'gen', 'col', 'lt', 'sgt', 'capt', 'gov', 'sen', 'rep', 'rev',
  'vs', 'approx', 'e.g', 'i.e',
]);
const UPPERCASE_LETTER = /^\p{Lu}$/u;

function mergeAbbreviationBreaks(sentences: string[]): string[] {
  if (sentences.length === 1) return sentences;
  const merged: string[] = [];
  let pending = '';
  for (const sentence of sentences) {
    let current = sentence;
    if (pending !== '') {
      if (pending.length + 1 + sentence.length <= MAX_SENTENCE_CHARS) current = pending + ' ' + sentence;
      else merged.push(pending);
    }
    pending = endsWithAbbreviation(current) ? current : '';
    if (pending === '') merged.push(current);
  }
  if (pending !== '') merged.push(pending);
  return merged;
}

function endsWithAbbreviation(sentence: string): boolean {
  if (!sentence.endsWith('.')) return false;
  const lastWord = sentence.slice(sentence.lastIndexOf(' ') + 1, -1);
  return TITLES.has(lastWord.toLowerCase()) || UPPERCASE_LETTER.test(lastWord);
}

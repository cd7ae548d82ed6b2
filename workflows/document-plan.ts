import { CHARS_PER_TOKEN_ESTIMATE, PROMPT_RESERVE_TOKENS, SUMMARY_CHARS_PER_TOKEN, type RemoteTaskModel } from '../src/contract';

/** How large each step of a plan may be on a model: what one call can take. */
export interface StepSizes {
  /** The longest a chunk may be. */
  chunkMaxChars: number;
  /** How many partial summaries one combining call takes. */
  groupSize: number;
  /** The longest a partial summary may be when it is combined. */
  summaryMaxChars: number;
}

/**
 * How a document is summarised on a model: its chunks (each summarised by one call), then the
 * partial summaries combined `groupSize` at a time, level after level, until one is left. The
 * number of calls is known before the first one, so progress counts towards a fixed total (until
 * a call proves the model's window smaller than planned, and the rest is planned again).
 */
export interface DocumentPlan extends StepSizes {
  chunks: string[];
  /** Every call the plan makes: one per chunk, then one per group at each combining level. */
  totalSteps: number;
}

// A sentence ends at . ! ? or … (with any closing quotes or brackets) followed by whitespace, or at a blank line.
const SENTENCE_END = /[.!?…]+["'”’)\]]*\s+|\n\s*\n/g;

export function planDocument(text: string, model: RemoteTaskModel): DocumentPlan {
  const sizes = stepSizesOn(model);
  const chunks = splitIntoChunks(text, sizes.chunkMaxChars);
  return { ...sizes, chunks, totalSteps: stepsFor(chunks.length, sizes.groupSize) };
}

export function stepSizesOn(model: RemoteTaskModel): StepSizes {
  const inputTokens = model.contextTokens - model.maxOutputTokens - PROMPT_RESERVE_TOKENS;
  const chunkMaxChars = inputTokens * CHARS_PER_TOKEN_ESTIMATE;
  const summaryMaxChars = model.maxOutputTokens * SUMMARY_CHARS_PER_TOKEN;
  // Two newlines join the summaries of a group.
  const groupSize = Math.max(2, Math.floor((chunkMaxChars + 2) / (summaryMaxChars + 2)));
  return { chunkMaxChars, groupSize, summaryMaxChars };
}

/** Sentences packed greedily into chunks of at most `maxChars`; a sentence longer than that is cut at spaces, or anywhere as a last resort. */
export function splitIntoChunks(text: string, maxChars: number): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const sentence of sentencesOf(text)) {
    for (const piece of piecesOf(sentence, maxChars)) {
      if (current.length + piece.length > maxChars && current.trim() !== '') {
        chunks.push(current.trim());
        current = '';
      }
      current += piece;
    }
  }
  if (current.trim() !== '') chunks.push(current.trim());
  return chunks;
}

/** The calls a plan of `chunkCount` chunks makes. */
export function stepsFor(chunkCount: number, groupSize: number): number {
  return chunkCount + combineStepsFor(chunkCount, groupSize);
}

/** The calls that combine `summaryCount` summaries into one, level by level. */
export function combineStepsFor(summaryCount: number, groupSize: number): number {
  let steps = 0;
  for (let level = summaryCount; level > 1; level = Math.ceil(level / groupSize)) steps += Math.ceil(level / groupSize);
  return steps;
}

/** The summaries of one level in groups of the plan's size, each group's text as one combine call reads it. */
export function combineGroups(summaries: string[], sizes: StepSizes): string[] {
  const groups: string[] = [];
  for (let start = 0; start < summaries.length; start += sizes.groupSize) {
    groups.push(
      summaries
        .slice(start, start + sizes.groupSize)
        .map((summary) => summary.slice(0, sizes.summaryMaxChars))
        .join('\n\n'),
    );
  }
  return groups;
}

/** The text cut after each sentence end, keeping every character (the whitespace stays with the sentence before it). */
function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = (match.index ?? 0) + match[0].length;
    sentences.push(text.slice(start, end));
    start = end;
  }
  if (start < text.length) sentences.push(text.slice(start));
  return sentences;
}

function piecesOf(sentence: string, maxChars: number): string[] {
  const pieces: string[] = [];
  let rest = sentence;
  while (rest.length > maxChars) {
    const space = rest.lastIndexOf(' ', maxChars);
    const cut = space > maxChars / 2 ? space + 1 : withinCharacter(rest, maxChars);
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  pieces.push(rest);
  return pieces;
}

/** `index`, or one before it when that would split a UTF-16 surrogate pair. */
function withinCharacter(text: string, index: number): number {
  const code = text.charCodeAt(index - 1);
  return code >= 0xd800 && code <= 0xdbff ? index - 1 : index;
}

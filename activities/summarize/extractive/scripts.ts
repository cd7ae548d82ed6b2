// Scripts written without spaces between words: Chinese, Japanese, Thai and their neighbours.

const UNSPACED_LETTERS = ['Han', 'Hiragana', 'Katakana', 'Thai', 'Lao', 'Khmer', 'Myanmar']
  .map((script) => `\\p{Script=${script}}`)
  .join('');
// CJK punctuation (。「」) and fullwidth forms (！？), which belong to no script of their own.
const UNSPACED_PUNCTUATION = String.raw`\u3000-\u303f\uff00-\uffef`;

export const UNSPACED_SCRIPT = new RegExp(`[${UNSPACED_LETTERS}]`, 'u');

const ENDS_UNSPACED = new RegExp(`[${UNSPACED_LETTERS}${UNSPACED_PUNCTUATION}]$`, 'u');

/** Whether text ends in a script that puts no space before the next sentence. */
export function endsUnspaced(text: string): boolean {
  return ENDS_UNSPACED.test(text);
}

// Deterministic prose-like text: sentences of 8-28 words drawn with a Zipf-like skew from a
// vocabulary of invented words, so the summariser sees realistic sentence and term statistics
// without the bench depending on any corpus.

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'sa', 'tor', 'vel', 'du', 'an', 'por', 'qui', 'bel', 'ces', 'nor', 'ti', 'gra'];
const VOCABULARY_SIZE = 3_000;

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vocabulary(random: () => number): string[] {
  const words: string[] = [];
  for (let i = 0; i < VOCABULARY_SIZE; i++) {
    const syllables = 1 + Math.floor(random() * 3);
    let word = '';
    for (let s = 0; s < syllables; s++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.push(word);
  }
  return words;
}

/** About `bytes` bytes (UTF-8, ASCII only) of sentence text; the same seed gives the same text. */
export function benchText(bytes: number, seed = 1): string {
  const random = seededRandom(seed);
  const words = vocabulary(random);
  const sentences: string[] = [];
  let length = 0;
  while (length < bytes) {
    const count = 8 + Math.floor(random() * 21);
    const picked: string[] = [];
    for (let i = 0; i < count; i++) picked.push(words[Math.floor(words.length * random() ** 3)]);
    const sentence = `${picked[0][0].toUpperCase()}${picked.join(' ').slice(1)}.`;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(' ').slice(0, bytes);
}

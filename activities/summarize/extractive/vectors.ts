// Sentences as unit-length tf-idf vectors over the document's own vocabulary, stored flat
// (compressed sparse rows) because a 512 KiB text has thousands of sentences and small per-sentence
// arrays cost more in allocation and garbage collection than the arithmetic on them.

export interface DocumentVectors {
  readonly vocabularySize: number;
  /** Sentence i's entries are at positions offsets[i] to offsets[i + 1] - 1 of ids and weights. */
  readonly offsets: Int32Array;
  /** Term ids; each appears at most once per sentence. */
  readonly ids: Int32Array;
  /** Weights; each sentence's vector has Euclidean length 1, or has no entries. */
  readonly weights: Float64Array;
}

/** idf is taken over the document's sentences, so no corpus or model is needed. */
export function tfidfVectors(sentenceTerms: string[][]): DocumentVectors {
  const termIds = new Map<string, number>();
  const sentenceCount = sentenceTerms.length;
  const offsets = new Int32Array(sentenceCount + 1);
  const uniqueIds: number[] = [];
  const termFrequency: number[] = [];
  let seenIn: Int32Array = new Int32Array(1024).fill(-1);
  let slot: Int32Array = new Int32Array(1024);
  sentenceTerms.forEach((terms, sentence) => {
    offsets[sentence] = uniqueIds.length;
    for (const term of terms) {
      let id = termIds.get(term);
      if (id === undefined) {
        id = termIds.size;
        termIds.set(term, id);
        if (id >= seenIn.length) [seenIn, slot] = [grow(seenIn, -1), grow(slot, 0)];
      }
      if (seenIn[id] === sentence) {
        termFrequency[slot[id]] += 1;
      } else {
        seenIn[id] = sentence;
        slot[id] = uniqueIds.length;
        uniqueIds.push(id);
        termFrequency.push(1);
      }
    }
  });
  offsets[sentenceCount] = uniqueIds.length;
  const ids = Int32Array.from(uniqueIds);
  const documentFrequency = new Int32Array(termIds.size);
  for (const id of ids) documentFrequency[id] += 1;
  const weights = new Float64Array(ids.length);
  for (let k = 0; k < ids.length; k++) {
    weights[k] = termFrequency[k] * Math.log((sentenceCount + 1) / documentFrequency[ids[k]]);
  }
  for (let sentence = 0; sentence < sentenceCount; sentence++) {
    toUnitLength(weights, offsets[sentence], offsets[sentence + 1]);
  }
  return { vocabularySize: termIds.size, offsets, ids, weights };
}

function grow(array: Int32Array, fillValue: number): Int32Array {
  const larger = new Int32Array(array.length * 2).fill(fillValue);
  larger.set(array);
  return larger;
}

function toUnitLength(weights: Float64Array, start: number, end: number): void {
  let squares = 0;
  for (let k = start; k < end; k++) squares += weights[k] * weights[k];
  if (squares === 0) return;
  const length = Math.sqrt(squares);
  for (let k = start; k < end; k++) weights[k] /= length;
}

// Position-aware centrality after PacSum (Zheng & Lapata 2019, "Sentence Centrality Revisited for
// Unsupervised Summarization"): a sentence is central when the text after it keeps returning to
// what it says, and less so when it only repeats what came before. That directed view is what lets
// centrality match the lead baseline on news, where plain (undirected) TextRank falls short.
//
// With PacSum's edge threshold at zero (the setting that scored best on the news sample), the sum
// of cosine similarities to all later sentences is the dot product with the sum of their vectors,
// so one pass with running prefix sums gives every score: linear in the number of terms, whatever
// the number of sentences.

import { DocumentVectors } from './vectors';

/** Similarity to all following sentences minus similarity to all preceding ones, per sentence. */
export function directedCentrality({ vocabularySize, offsets, ids, weights }: DocumentVectors): number[] {
  const total = new Float64Array(vocabularySize);
  for (let k = 0; k < ids.length; k++) total[ids[k]] += weights[k];
  const before = new Float64Array(vocabularySize);
  const scores: number[] = [];
  for (let sentence = 0; sentence + 1 < offsets.length; sentence++) {
    let toLater = 0;
    let toEarlier = 0;
    for (let k = offsets[sentence]; k < offsets[sentence + 1]; k++) {
      const id = ids[k];
      toEarlier += weights[k] * before[id];
      toLater += weights[k] * (total[id] - before[id] - weights[k]);
    }
    for (let k = offsets[sentence]; k < offsets[sentence + 1]; k++) before[ids[k]] += weights[k];
    scores.push(toLater - toEarlier);
  }
  return scores;
}

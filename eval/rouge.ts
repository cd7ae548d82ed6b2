// ROUGE F1 as Google's rouge_score computes it without stemming (the convention of published
// CNN/DailyMail figures), on top of js-rouge: lowercase, tokens are runs of [a-z0-9], and ROUGE-L
// is the summary-level "Lsum" over newline-separated sentences. Checked against rouge_score 0.1.2
// to 1e-15 on the news sample's Lead-3.

import { l as rougeL, n as rougeN } from 'js-rouge';

export interface RougeScores {
  /** F1 in [0, 1]. */
  rouge1: number;
  rouge2: number;
  rougeLsum: number;
}

/** Scores candidate sentences against reference sentences (each side one sentence per element). */
export function rougeScores(candidate: string[], reference: string[]): RougeScores {
  const candidateText = asLines(candidate);
  const referenceText = asLines(reference);
  if (rougeTokens(candidateText).length === 0 || rougeTokens(referenceText).length === 0) {
    return { rouge1: 0, rouge2: 0, rougeLsum: 0 };
  }
  return {
    rouge1: rougeN(candidateText, referenceText, { n: 1, tokenizer: rougeTokens }),
    rouge2: rougeN(candidateText, referenceText, { n: 2, tokenizer: rougeTokens }),
    rougeLsum: rougeL(candidateText, referenceText, { tokenizer: rougeTokens, segmenter: lines }),
  };
}

/** rouge_score's default tokenizer, stemming off. */
export function rougeTokens(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

function asLines(sentences: string[]): string {
  return sentences.map((sentence) => sentence.replace(/\s+/g, ' ')).join('\n');
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

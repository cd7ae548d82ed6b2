// Sentence salience: directed centrality plus a lead bias.

import { directedCentrality } from './centrality';
import { contentTerms } from './terms';
import { tfidfVectors } from './vectors';

// News and most expository text put the point first. The bias fades over the first few sentences
// (weight 0.5 at the first, about 0.18 by the fifth), so centrality decides beyond the opening.
// Both constants were chosen on the CNN/DailyMail sample; nearby values score within half a point.
const LEAD_WEIGHT = 0.5;
const LEAD_DECAY_SENTENCES = 4;

// Headings, labels and one-word bullets say little on their own: they rank after every sentence
// with more content, yet can still fill a summary of a text made only of them. The penalty exceeds
// the spread of the other scores (centrality is scaled into [-1, 1], the lead bias into [0, 0.5]).
const MIN_CONTENT_TERMS = 3;
const FRAGMENT_PENALTY = 3;

/** One salience score per sentence; higher is more worth keeping. */
export function salienceScores(sentences: string[]): number[] {
  const sentenceTerms = sentences.map(contentTerms);
  const centrality = directedCentrality(tfidfVectors(sentenceTerms));
  const scale = centrality.reduce((largest, value) => Math.max(largest, Math.abs(value)), 0) || 1;
  return centrality.map(
    (value, index) =>
      value / scale +
      LEAD_WEIGHT * Math.exp(-index / LEAD_DECAY_SENTENCES) -
      (sentenceTerms[index].length < MIN_CONTENT_TERMS ? FRAGMENT_PENALTY : 0),
  );
}

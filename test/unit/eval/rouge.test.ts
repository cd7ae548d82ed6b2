import { defaultNewsSamplePath, loadNewsSample } from '../../../eval/news-sample';
import { rougeScores, rougeTokens } from '../../../eval/rouge';

// Expected values computed with Google's rouge_score 0.1.2 (RougeScorer(['rouge1', 'rouge2',
// 'rougeLsum'], use_stemmer=False)), sentences separated by newlines.
describe('ROUGE F1 matches rouge_score', () => {
  it.each([
    [['the cat sat on the mat'], ['the cat was on the mat'], 0.833333, 0.6, 0.833333],
    [['police killed the gunman'], ['police kill the gunman'], 0.75, 0.333333, 0.75],
    [['a b c d', 'e f g'], ['e f g h', 'a b c'], 0.857143, 0.666667, 0.857143],
    [
      ['the gunman was shot dead by police .', 'he had a gun .'],
      ['police shot the gunman .', 'the gunman had a rifle and a gun .'],
      0.608696,
      0.285714,
      0.434783,
    ],
  ])('scores %p against %p', (candidate, reference, rouge1, rouge2, rougeLsum) => {
    const scores = rougeScores(candidate, reference);
    expect(scores.rouge1).toBeCloseTo(rouge1, 5);
    expect(scores.rouge2).toBeCloseTo(rouge2, 5);
    expect(scores.rougeLsum).toBeCloseTo(rougeLsum, 5);
  });

  it('reproduces the Lead-3 figures of eval/data/SOURCE.md on the news sample', () => {
    const items = loadNewsSample(defaultNewsSamplePath(__dirname));
    const totals = { rouge1: 0, rouge2: 0, rougeLsum: 0 };
    for (const item of items) {
      const lead3 = sentencesAtStopTokens(item.article).slice(0, 3);
      const scores = rougeScores(lead3, item.referenceSentences);
      totals.rouge1 += scores.rouge1;
      totals.rouge2 += scores.rouge2;
      totals.rougeLsum += scores.rougeLsum;
    }
    // rouge_score on the same Lead-3: 39.6576 / 16.9371 / 36.2592.
    expect((100 * totals.rouge1) / items.length).toBeCloseTo(39.6576, 3);
    expect((100 * totals.rouge2) / items.length).toBeCloseTo(16.9371, 3);
    expect((100 * totals.rougeLsum) / items.length).toBeCloseTo(36.2592, 3);
  });
});

/** SOURCE.md's Lead-3: the tokenised article cut after every ".", "?" and "!" token. */
function sentencesAtStopTokens(article: string): string[] {
  const sentences: string[] = [];
  let current: string[] = [];
  for (const token of article.split(/\s+/)) {
    current.push(token);
    if (token === '.' || token === '?' || token === '!') {
      sentences.push(current.join(' '));
      current = [];
    }
  }
  if (current.length > 0) sentences.push(current.join(' '));
  return sentences;
}

describe('ROUGE tokenisation', () => {
  it('lowercases and keeps only runs of letters and digits, without stemming', () => {
    expect(rougeTokens("The Cat's 2 HATS, e-mail!")).toEqual(['the', 'cat', 's', '2', 'hats', 'e', 'mail']);
  });

  it('ignores case and punctuation when scoring', () => {
    expect(rougeScores(['The Cat, the HAT!'], ['the cat the hat'])).toEqual({ rouge1: 1, rouge2: 1, rougeLsum: 1 });
  });

  it('scores a summary with no words as zero rather than failing', () => {
    expect(rougeScores([''], ['the cat'])).toEqual({ rouge1: 0, rouge2: 0, rougeLsum: 0 });
    expect(rougeScores(['...'], ['the cat'])).toEqual({ rouge1: 0, rouge2: 0, rougeLsum: 0 });
  });
});

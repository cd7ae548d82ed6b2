import { summarizeExtractive, summarySentences } from '../../../../../activities/summarize/extractive';
import { splitSentences } from '../../../../../activities/summarize/extractive/sentences';
import { defaultNewsSamplePath, loadNewsSample } from '../../../../../eval/news-sample';
import { rougeScores, rougeTokens } from '../../../../../eval/rouge';

// Quality floor on the 100 CNN/DailyMail articles of eval/data (see eval/data/SOURCE.md). Each rule
// below fails for a trivial summariser: the first word shares too little with the reference, an
// empty string or the whole article fail the length rules, and anything weaker than taking the
// first three sentences fails the ROUGE-1 rule.
const items = loadNewsSample(defaultNewsSamplePath(__dirname));

// Words of four or more letters stand in for content words, independent of the summariser's own.
function contentWords(text: string): Set<string> {
  return new Set(rougeTokens(text).filter((token) => token.length >= 4 && /[a-z]/.test(token)));
}

describe('extractive summaries of the news sample', () => {
  it('covers all 100 articles', () => {
    expect(items).toHaveLength(100);
  });

  it.each(items.map((item) => [item.id, item] as const))(
    '%s: is non-empty, at most half the article, and shares content words with the reference',
    (_id, item) => {
      const summary = summarizeExtractive(item.article);
      expect(summary.trim()).not.toBe('');
      expect(summary.length).toBeLessThanOrEqual(item.article.length / 2);
      const reference = contentWords(item.referenceSentences.join(' '));
      const shared = [...contentWords(summary)].filter((word) => reference.has(word));
      expect(shared.length).toBeGreaterThanOrEqual(2);
    },
  );

  it('scores at least the ROUGE-1 of Lead-3, the first three sentences', () => {
    let summaryRouge1 = 0;
    let lead3Rouge1 = 0;
    for (const item of items) {
      const summary = summarySentences(item.article).map((sentence) => sentence.text);
      const lead3 = splitSentences(item.article)
        .slice(0, 3)
        .map((sentence) => sentence.text);
      summaryRouge1 += rougeScores(summary, item.referenceSentences).rouge1;
      lead3Rouge1 += rougeScores(lead3, item.referenceSentences).rouge1;
    }
    expect(summaryRouge1).toBeGreaterThanOrEqual(lead3Rouge1);
  });
});

// `npm run eval:summaries [-- <news-summaries.jsonl>]`: scores the default extractive summariser
// against the Lead-3 baseline on the CNN/DailyMail sample, and times it. Exits 1 if the summariser's
// ROUGE-1 falls below Lead-3's, so the claim "at least Lead-3" stays checkable.

import { summarySentences } from '../activities/summarize/extractive';
import { splitSentences } from '../activities/summarize/extractive/sentences';
import { defaultNewsSamplePath, loadNewsSample, NewsItem } from './news-sample';
import { rougeScores, rougeTokens } from './rouge';

interface SystemResult {
  system: string;
  rouge1: number;
  rouge2: number;
  rougeLsum: number;
  averageSentences: number;
  averageWords: number;
}

type Summariser = (article: string) => string[];

const extractive: Summariser = (article) => summarySentences(article).map((sentence) => sentence.text);
const lead3: Summariser = (article) =>
  splitSentences(article)
    .slice(0, 3)
    .map((sentence) => sentence.text);

const LARGE_INPUT_BYTES = 512 * 1024;
const TIMING_RUNS = 5;

function evaluate(system: string, items: NewsItem[], summarise: Summariser): SystemResult {
  const totals = { rouge1: 0, rouge2: 0, rougeLsum: 0, sentences: 0, words: 0 };
  for (const item of items) {
    const summary = summarise(item.article);
    const scores = rougeScores(summary, item.referenceSentences);
    totals.rouge1 += scores.rouge1;
    totals.rouge2 += scores.rouge2;
    totals.rougeLsum += scores.rougeLsum;
    totals.sentences += summary.length;
    totals.words += rougeTokens(summary.join(' ')).length;
  }
  const mean = (total: number): number => total / items.length;
  return {
    system,
    rouge1: 100 * mean(totals.rouge1),
    rouge2: 100 * mean(totals.rouge2),
    rougeLsum: 100 * mean(totals.rougeLsum),
    averageSentences: mean(totals.sentences),
    averageWords: mean(totals.words),
  };
}

function table(results: SystemResult[]): string {
  const header = '| system     |   R-1 |   R-2 |   R-L | avg sentences | avg words |';
  const rule = '|------------|------:|------:|------:|--------------:|----------:|';
  const rows = results.map((r) => {
    const cells = [
      r.system.padEnd(10),
      r.rouge1.toFixed(2).padStart(5),
      r.rouge2.toFixed(2).padStart(5),
      r.rougeLsum.toFixed(2).padStart(5),
      r.averageSentences.toFixed(2).padStart(13),
      r.averageWords.toFixed(1).padStart(9),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [header, rule, ...rows].join('\n');
}

/** Megabytes (10^6 bytes) of article text summarised per second: the median of TIMING_RUNS passes. */
function sampleThroughput(items: NewsItem[]): number {
  const articles = items.map((item) => item.article);
  const bytes = articles.reduce((sum, article) => sum + Buffer.byteLength(article), 0);
  const seconds = medianRunMilliseconds(() => articles.forEach((article) => extractive(article))) / 1000;
  return bytes / 1e6 / seconds;
}

/** Milliseconds to summarise 512 KiB made of the sample's articles, one per paragraph. */
function largeInputMilliseconds(items: NewsItem[]): number {
  let text = '';
  while (Buffer.byteLength(text) < LARGE_INPUT_BYTES) text += items.map((item) => item.article).join('\n\n') + '\n\n';
  const input = Buffer.from(text).subarray(0, LARGE_INPUT_BYTES).toString('utf8');
  return medianRunMilliseconds(() => extractive(input));
}

/** Median wall time of TIMING_RUNS runs, after one unmeasured run to warm up the JIT. */
function medianRunMilliseconds(run: () => void): number {
  run();
  const times: number[] = [];
  for (let i = 0; i < TIMING_RUNS; i++) {
    const start = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(TIMING_RUNS / 2)];
}

function main(): void {
  const file = process.argv[2] ?? defaultNewsSamplePath(__dirname);
  const items = loadNewsSample(file);
  const results = [evaluate('extractive', items, extractive), evaluate('lead-3', items, lead3)];
  console.log(`Summary quality on ${items.length} CNN/DailyMail test articles (${file})`);
  console.log('ROUGE F1 x 100 in rouge_score style, no stemming; R-L is ROUGE-Lsum.\n');
  console.log(table(results));
  console.log(
    `\nextractive speed (one core): ${sampleThroughput(items).toFixed(1)} MB/s over the sample; ` +
      `512 KiB input in ${largeInputMilliseconds(items).toFixed(1)} ms (medians of ${TIMING_RUNS} runs)`,
  );
  const [ours, baseline] = results;
  const margin = ours.rouge1 - baseline.rouge1;
  console.log(`extractive R-1 minus lead-3 R-1: ${margin >= 0 ? '+' : ''}${margin.toFixed(2)}`);
  if (margin < 0) process.exitCode = 1;
}

main();

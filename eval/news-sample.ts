// The CNN/DailyMail evaluation sample kept beside this code (eval/data/news-summaries.jsonl; its
// source and licence are in eval/data/SOURCE.md).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../src/common/repo-root';

export interface NewsItem {
  id: string;
  /** Lowercased, PTB-tokenised article text on one line. */
  article: string;
  /** Human highlights, one per element. */
  referenceSentences: string[];
}

/** `<repo>/eval/data/news-summaries.jsonl` (provenance and licence in SOURCE.md beside it), found from any folder inside the repository. */
export function defaultNewsSamplePath(fromDirectory: string): string {
  return path.resolve(repoRoot(fromDirectory), 'eval', 'data', 'news-summaries.jsonl');
}

export function loadNewsSample(file: string): NewsItem[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const { id, article, reference } = JSON.parse(line) as { id: string; article: string; reference: string };
      return { id, article, referenceSentences: reference.split('\n').filter((sentence) => sentence.trim() !== '') };
    });
}

// The CNN/DailyMail evaluation sample kept in the shared folder beside the repository
// (shared/eval/news-summaries.jsonl; its source and licence are in shared/eval/SOURCE.md).

import * as fs from 'node:fs';
import * as path from 'node:path';

export interface NewsItem {
  id: string;
  /** Lowercased, PTB-tokenised article text on one line. */
  article: string;
  /** Human highlights, one per element. */
  referenceSentences: string[];
}

/** `<repo>/../shared/eval/news-summaries.jsonl`, found from any folder inside the repository. */
export function defaultNewsSamplePath(fromDirectory: string): string {
  return path.resolve(repositoryRoot(fromDirectory), '..', 'shared', 'eval', 'news-summaries.jsonl');
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

// The root holds both package.json and tsconfig.json; a build can copy package.json into dist/,
// but never tsconfig.json, so compiled code under dist/ still finds the real root.
function repositoryRoot(fromDirectory: string): string {
  let directory = path.resolve(fromDirectory);
  const isRoot = (candidate: string): boolean =>
    fs.existsSync(path.join(candidate, 'package.json')) && fs.existsSync(path.join(candidate, 'tsconfig.json'));
  while (!isRoot(directory)) {
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error(`no folder with package.json and tsconfig.json above ${fromDirectory}`);
    directory = parent;
  }
  return directory;
}

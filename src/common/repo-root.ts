import * as fs from 'node:fs';
import * as path from 'node:path';

/** The folder holding Assay's package.json, from source (ts-jest) or from dist/ alike. */
export function repoRoot(from: string = __dirname): string {
  let dir = from;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}

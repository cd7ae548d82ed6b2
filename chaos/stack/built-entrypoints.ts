import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../src/common/repo-root';

/** The built entrypoints that `npm run start:api`, `start:worker` and the `assay` bin run. */
export interface BuiltEntrypoints {
  api: string;
  worker: string;
  cli: string;
}

/**
 * The suite drives the same files `npm start` runs, so they must be built. `npm test` and
 * `npm run test:chaos` build them first (scripts/ensure-setup.js); a bare jest run may not have.
 */
export function builtEntrypoints(): BuiltEntrypoints {
  const dist = path.join(repoRoot(__dirname), 'dist', 'src');
  const entrypoints = {
    api: path.join(dist, 'api', 'main.js'),
    worker: path.join(dist, 'worker', 'main.js'),
    cli: path.join(dist, 'cli', 'main.js'),
  };
  const missing = Object.values(entrypoints).filter((file) => !fs.existsSync(file));
  if (missing.length > 0) {
    throw new Error(`The chaos suite runs the built service, but ${missing.join(', ')} is missing: run \`npm run build\` (npm test does it in pretest).`);
  }
  return entrypoints;
}

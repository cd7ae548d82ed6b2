import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../common/repo-root';

/** What `npm run build` bundles the console into (scripts/build-console.js). */
export const CONSOLE_ASSET_DIR = path.join(repoRoot(), 'dist', 'console');

const CONTENT_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };

export interface ConsoleAsset {
  body: Buffer;
  contentType: string;
}

/** The built console's files, read once at start; empty when the console was not built. */
export function loadConsoleAssets(dir: string = CONSOLE_ASSET_DIR): Map<string, ConsoleAsset> {
  const assets = new Map<string, ConsoleAsset>();
  if (!fs.existsSync(dir)) return assets;
  for (const name of fs.readdirSync(dir)) {
    const contentType = CONTENT_TYPES[path.extname(name)];
    if (contentType) assets.set(name, { body: fs.readFileSync(path.join(dir, name)), contentType });
  }
  return assets;
}

import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './repo-root';

/**
 * Where scripts/ensure-setup.js recorded a tool (.tools/<recordName>), or null when it recorded
 * none or the tool has gone since.
 */
export function recordedToolPath(recordName: string): string | null {
  const recordFile = path.join(repoRoot(), '.tools', recordName);
  if (!fs.existsSync(recordFile)) return null;
  const location = fs.readFileSync(recordFile, 'utf8').trim();
  return location && fs.existsSync(location) ? location : null;
}

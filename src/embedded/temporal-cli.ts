import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../common/repo-root';

/**
 * Path of the Temporal CLI: TEMPORAL_CLI_PATH, else the path the setup step recorded, else
 * whatever scripts/provision-temporal.js finds or installs now.
 */
export function resolveTemporalCli(explicitPath: string | undefined = process.env.TEMPORAL_CLI_PATH): string {
  if (explicitPath) return explicitPath;
  const root = repoRoot();
  const recorded = path.join(root, '.tools', 'temporal-cli-path');
  if (fs.existsSync(recorded)) {
    const cliPath = fs.readFileSync(recorded, 'utf8').trim();
    if (fs.existsSync(cliPath)) return cliPath;
  }
  return execFileSync(process.execPath, [path.join(root, 'scripts', 'provision-temporal.js'), '--quiet'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

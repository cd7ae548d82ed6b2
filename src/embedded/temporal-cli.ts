import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { recordedToolPath } from '../common/recorded-tool';
import { repoRoot } from '../common/repo-root';

/**
 * Path of the Temporal CLI: TEMPORAL_CLI_PATH, else the path the setup step recorded, else
 * whatever scripts/provision-temporal.js finds or installs now.
 */
export function resolveTemporalCli(explicitPath: string | undefined = process.env.TEMPORAL_CLI_PATH): string {
  if (explicitPath) return explicitPath;
  const recorded = recordedToolPath('temporal-cli-path');
  if (recorded) return recorded;
  return execFileSync(process.execPath, [path.join(repoRoot(), 'scripts', 'provision-temporal.js'), '--quiet'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

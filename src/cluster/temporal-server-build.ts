import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from '../common/repo-root';

/** The binaries and schema scripts/provision-temporal-server.js builds (or finds cached) for one server version. */
export interface TemporalServerBuild {
  dir: string;
  server: string;
  sqlTool: string;
  uiServer: string;
  /** schema/postgresql/v12: `temporal/versioned` and `visibility/versioned`. */
  schemaDir: string;
}

/**
 * Runs scripts/provision-temporal-server.js, which says on stderr what it builds and how long
 * that took (a cold build takes minutes), and returns where the build is.
 */
export function provisionTemporalServer(): TemporalServerBuild {
  const dir = execFileSync(process.execPath, [path.join(repoRoot(), 'scripts', 'provision-temporal-server.js')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  return {
    dir,
    server: path.join(dir, 'temporal-server'),
    sqlTool: path.join(dir, 'temporal-sql-tool'),
    uiServer: path.join(dir, 'temporal-ui-server'),
    schemaDir: path.join(dir, 'schema', 'postgresql', 'v12'),
  };
}

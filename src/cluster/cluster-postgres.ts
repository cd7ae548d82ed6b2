import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { recordedToolPath } from '../common/recorded-tool';
import { repoRoot } from '../common/repo-root';
import { freePort } from '../embedded/free-port';
import { startPostgresServer, type PostgresServer } from './postgres-server';

/** The database the API instances share for keys, rate limits and webhooks (DATABASE_URL). */
const ASSAY_DATABASE = 'assay';
const SUPERUSER = 'postgres';

export interface ClusterPostgres {
  server: PostgresServer;
  user: string;
  password: string;
  /** DATABASE_URL of Assay's own database. */
  assayUrl: string;
}

/**
 * The cluster's PostgreSQL: its data directory under the cluster's, kept across runs, with a
 * password made on the first run (kept beside it, owner only); on a free port each run.
 */
export async function startClusterPostgres(dataDir: string, durable: boolean, maxConnections: number): Promise<ClusterPostgres> {
  const passwordFile = path.join(dataDir, 'postgres-password');
  if (!fs.existsSync(passwordFile)) fs.writeFileSync(passwordFile, randomBytes(18).toString('hex'), { mode: 0o600 });
  const password = fs.readFileSync(passwordFile, 'utf8').trim();
  const server = await startPostgresServer({ binDir: postgresBinDir(), baseDir: path.join(dataDir, 'postgres'), port: await freePort(), durable, password, maxConnections });
  const url = (database: string) => `postgres://${SUPERUSER}:${password}@127.0.0.1:${server.port}/${database}`;
  const client = new Client({ connectionString: url('postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [ASSAY_DATABASE]);
    if (rowCount === 0) await client.query(`CREATE DATABASE ${ASSAY_DATABASE}`);
  } finally {
    await client.end();
  }
  return { server, user: SUPERUSER, password, assayUrl: url(ASSAY_DATABASE) };
}

/** The directory the setup step recorded, else whatever scripts/provision-postgres.js finds or installs now. */
function postgresBinDir(): string {
  return (
    recordedToolPath('postgres-bin-dir') ??
    execFileSync(process.execPath, [path.join(repoRoot(), 'scripts', 'provision-postgres.js')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim()
  );
}

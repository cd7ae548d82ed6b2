import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { recordedToolPath } from '../../src/common/recorded-tool';
import { freePort } from '../../src/embedded/free-port';

const run = promisify(execFile);

const OS_USER = 'postgres';

export interface TestPostgres {
  /** Connection URL of the server's `postgres` database, as the superuser. */
  adminUrl: string;
  /** Creates an empty database and returns its URL, so each test starts from nothing. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A real, throwaway PostgreSQL server for one test file: initdb in a temp directory, listening on
 * a free loopback port, trust authentication, durability off for speed. PostgreSQL refuses to run
 * as root, so under root it runs as the `postgres` OS user (Debian's `postgresql` package creates it).
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = findPostgresBinaries();
  const baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-pg-'));
  const dataDir = path.join(baseDir, 'data');
  const logFile = path.join(baseDir, 'postgres.log');
  const asServerUser = serverUserRunner(baseDir);
  const port = await freePort();
  try {
    await asServerUser(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
    const serverOptions = [`-p ${port}`, '-c listen_addresses=127.0.0.1', `-k ${baseDir}`, '-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'];
    await asServerUser(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', serverOptions.join(' '), 'start']);
  } catch (error) {
    const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '(no server log)';
    fs.rmSync(baseDir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL from ${bin}: ${(error as Error).message}\n${log}`);
  }

  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let databases = 0;
  return {
    adminUrl,
    async createDatabase() {
      const name = `assay_test_${++databases}`;
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      await asServerUser(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      fs.rmSync(baseDir, { recursive: true, force: true });
    },
  };
}

/** The server binaries' directory that the setup step recorded; a clear failure (not a skip) when there is none. */
function findPostgresBinaries(): string {
  const binDir = recordedToolPath('postgres-bin-dir');
  if (!binDir) {
    throw new Error(
      'No PostgreSQL server: .tools/postgres-bin-dir names no directory that exists. `npm test` provides one: ' +
        'its pretest, `node scripts/ensure-setup.js --for-tests`, finds or installs it and records it there.',
    );
  }
  return binDir;
}

/** Runs a PostgreSQL binary as the current user, or as `postgres` when the current user is root. */
function serverUserRunner(baseDir: string): (file: string, args: string[]) => Promise<void> {
  if (process.getuid?.() !== 0) return async (file, args) => void (await run(file, args));
  let ids: number[];
  try {
    ids = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, OS_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })));
  } catch {
    throw new Error(`PostgreSQL refuses to run as root and there is no "${OS_USER}" OS user to run it as; create one (Debian's "postgresql" package does).`);
  }
  fs.chownSync(baseDir, ids[0], ids[1]);
  return async (file, args) => void (await run('runuser', ['-u', OS_USER, '--', file, ...args]));
}

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { recordedToolPath } from '../../src/common/recorded-tool';
import { startPostgresServer, type PostgresServer } from '../../src/cluster/postgres-server';
import { freePort } from '../../src/embedded/free-port';
import { perFile } from './per-file';

export interface TestPostgres {
  /** Connection URL of the server's `postgres` database, as the superuser. */
  adminUrl: string;
  /** Creates an empty database and returns its URL, so each test starts from nothing. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A real, throwaway PostgreSQL server for one test file: initdb in a temp directory, listening on
 * a free loopback port, trust authentication, durability off for speed.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-pg-'));
  const port = await freePort();
  let server: PostgresServer;
  try {
    server = await startPostgresServer({ binDir: findPostgresBinaries(), baseDir, port, durable: false });
  } catch (error) {
    fs.rmSync(baseDir, { recursive: true, force: true });
    throw error;
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
      await server.stop();
      fs.rmSync(baseDir, { recursive: true, force: true });
    },
  };
}

/** A server for the whole test file, started before its first test and stopped after its last; call the result inside a test. */
export function testPostgresPerFile(): () => TestPostgres {
  return perFile(startTestPostgres);
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

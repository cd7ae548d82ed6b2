import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import type { TemporalServerBuild } from './temporal-server-build';

const run = promisify(execFile);

/** The two databases of a Temporal server on PostgreSQL, each with its own schema directory. */
const DATABASES = [
  { name: 'temporal', schema: 'temporal' },
  { name: 'temporal_visibility', schema: 'visibility' },
];

export interface SchemaTarget {
  port: number;
  user: string;
  password: string;
}

/**
 * Creates Temporal's databases on first use and brings both schemas to this server version with
 * its own tool (temporal-sql-tool): create + setup-schema -v 0.0 for a new database, then
 * update-schema, which applies only the versions a database lacks. That is also how an upgrade
 * to the next minor version updates the schema (docs/production.md, Upgrading).
 */
export async function setUpTemporalSchema(build: TemporalServerBuild, target: SchemaTarget): Promise<void> {
  const existing = await existingDatabases(target);
  const env = { ...process.env, SQL_PASSWORD: target.password };
  for (const database of DATABASES) {
    const sqlTool = (...args: string[]) =>
      run(build.sqlTool, ['--plugin', 'postgres12', '--ep', '127.0.0.1', '-p', String(target.port), '-u', target.user, '--db', database.name, ...args], { env }).catch(
        (error: { stderr?: string; message: string }) => {
          throw new Error(`temporal-sql-tool ${args[0]} of ${database.name} failed: ${error.stderr?.trim() || error.message}`);
        },
      );
    if (!existing.has(database.name)) {
      await sqlTool('create');
      await sqlTool('setup-schema', '-v', '0.0');
    }
    await sqlTool('update-schema', '-d', path.join(build.schemaDir, database.schema, 'versioned'));
  }
}

async function existingDatabases(target: SchemaTarget): Promise<Set<string>> {
  const client = new Client({ host: '127.0.0.1', port: target.port, user: target.user, password: target.password, database: 'postgres' });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database');
    return new Set(rows.map((row) => row.datname));
  } finally {
    await client.end();
  }
}

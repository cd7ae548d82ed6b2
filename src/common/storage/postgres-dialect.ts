import { PostgresDialect } from 'kysely';
import { Pool, types, type CustomTypesConfig } from 'pg';

/** A slow database must fail a request quickly rather than hold it (and its socket) open. */
const QUERY_TIMEOUT_MS = 5000;

/**
 * Values in the shapes SQLite returns, so a table needs one row mapping for both databases:
 * timestamps as ISO text, JSON as its text, bigint (only the audit log's ids) as a number.
 */
const sqliteShapedValues: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    switch (oid) {
      case types.builtins.TIMESTAMPTZ: {
        const parseDate = types.getTypeParser(oid, format) as (text: string) => Date;
        return (text: string) => parseDate(text).toISOString();
      }
      case types.builtins.JSONB:
        return (text: string) => text;
      case types.builtins.INT8:
        return Number;
      default:
        return types.getTypeParser(oid, format);
    }
  }) as CustomTypesConfig['getTypeParser'],
};

/** Connections one process's storage may hold at once (a database server must allow every process's). */
export const STORAGE_POOL_SIZE = 10;

/** The PostgreSQL at DATABASE_URL, which several API instances, the workers and the operator CLI share. */
export function postgresDialect(connectionString: string): PostgresDialect {
  const pool = new Pool({
    connectionString,
    max: STORAGE_POOL_SIZE,
    connectionTimeoutMillis: QUERY_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    // A worker keeps its storage for its lifetime and never closes it; idle connections must not keep the process alive.
    allowExitOnIdle: true,
    types: sqliteShapedValues,
  });
  // An idle connection dropped by the server emits here; without a listener the process would
  // crash. The pool discards that connection and the next query opens a new one.
  pool.on('error', () => undefined);
  return new PostgresDialect({ pool });
}

import type Database from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Distinct SQL texts kept prepared; an IN list of each length is a text of its own, so the set is bounded. */
export const CACHED_STATEMENTS = 256;

/**
 * The database as Kysely sees it, compiling each distinct SQL text once: Kysely prepares every
 * query afresh, and compiling was a few per cent of the worker's main thread, more than the short
 * queries themselves (docs/benchmarks.md). A statement that is still being iterated is busy, so a
 * query meeting one prepares its own; the least recently used text leaves first.
 */
export function withStatementCache(database: Database.Database): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      const cached = statements.get(sql);
      statements.delete(sql);
      const statement = cached && !cached.busy ? cached : database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > CACHED_STATEMENTS) statements.delete(statements.keys().next().value as string);
      return statement;
    },
  };
}

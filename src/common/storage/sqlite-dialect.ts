import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';
import { withStatementCache } from './statement-cache';

/**
 * The SQLite file in DATA_DIR, shared by the API, the worker and the operator CLI (WAL). It holds
 * key hashes and webhook signing secrets, so the directory and the file are the owner's only; the
 * file is created before SQLite opens it because SQLite would create it 0644, and SQLite gives the
 * -wal and -shm files it creates later the database file's mode.
 */
export function sqliteDialect(file: string): SqliteDialect {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  return new TurnTakingSqliteDialect({ database: withStatementCache(database) }, path.resolve(file));
}

/** One queue per file: every handle on it in this process waits its turn in the same one. */
const turnsByFile = new Map<string, Turns>();

class Turns {
  private last: Promise<void> = Promise.resolve();

  /** Resolves when every earlier caller has ended its turn; call the returned function to end this one. */
  async take(): Promise<() => void> {
    const earlier = this.last;
    let end!: () => void;
    this.last = new Promise((resolve) => (end = resolve));
    await earlier;
    return end;
  }
}

/**
 * Handles on one file in one process (an API and a worker in one test process, say) take turns
 * with its connection, a transaction being one turn. better-sqlite3 waits for another
 * connection's lock by blocking the thread, so waiting on a handle of the same thread would stop
 * that handle from finishing until busy_timeout ran out.
 */
class TurnTakingSqliteDialect extends SqliteDialect {
  constructor(
    private readonly config: SqliteDialectConfig,
    private readonly file: string,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    let turns = turnsByFile.get(this.file);
    if (!turns) {
      turns = new Turns();
      turnsByFile.set(this.file, turns);
    }
    return new TurnTakingSqliteDriver(this.config, turns);
  }
}

class TurnTakingSqliteDriver extends SqliteDriver {
  private endTurn?: () => void;

  constructor(
    config: SqliteDialectConfig,
    private readonly turns: Turns,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    this.endTurn = await this.turns.take();
    return super.acquireConnection();
  }

  override async releaseConnection(): Promise<void> {
    await super.releaseConnection();
    this.endTurn?.();
  }
}

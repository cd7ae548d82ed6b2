import Database from 'better-sqlite3';
import { type Generated, Kysely, SqliteDialect, sql } from 'kysely';
import { CACHED_STATEMENTS, withStatementCache } from '../../../../src/common/storage/statement-cache';

let database: Database.Database;

beforeEach(() => {
  database = new Database(':memory:');
  database.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)');
});

afterEach(() => {
  if (database.open) database.close();
});

describe('the statement cache Kysely queries SQLite through', () => {
  it('compiles a SQL text once and binds each use afresh', () => {
    const cached = withStatementCache(database);
    const insert = cached.prepare('INSERT INTO items (name) VALUES (?)');
    insert.run(['a']);
    expect(cached.prepare('INSERT INTO items (name) VALUES (?)')).toBe(insert);
    insert.run(['b']);
    expect(cached.prepare('SELECT name FROM items WHERE name = ?').all(['b'])).toEqual([{ name: 'b' }]);
    expect(cached.prepare('SELECT name FROM items WHERE name = ?').all(['a'])).toEqual([{ name: 'a' }]);
  });

  it('prepares another statement for a query that meets its text still being iterated', () => {
    database.exec("INSERT INTO items (name) VALUES ('a'), ('b')");
    const cached = withStatementCache(database);
    const select = cached.prepare('SELECT name FROM items ORDER BY id');
    const iterating = select.iterate([]);
    expect(iterating.next().value).toEqual({ name: 'a' });
    const other = cached.prepare('SELECT name FROM items ORDER BY id');
    expect(other).not.toBe(select);
    expect(other.all([])).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(iterating.next().value).toEqual({ name: 'b' });
    expect(iterating.next().done).toBe(true);
    expect(cached.prepare('SELECT name FROM items ORDER BY id')).toBe(other);
  });

  it('keeps the most recently used texts and compiles one it let go again', () => {
    const cached = withStatementCache(database);
    const first = cached.prepare('SELECT 0');
    const second = cached.prepare('SELECT 1');
    for (let n = 2; n <= CACHED_STATEMENTS; n++) {
      cached.prepare(`SELECT ${n}`);
      if (n === CACHED_STATEMENTS / 2) expect(cached.prepare('SELECT 1')).toBe(second);
    }
    expect(cached.prepare('SELECT 1')).toBe(second);
    expect(cached.prepare('SELECT 0')).not.toBe(first);
  });

  it('serves Kysely, which closes the database when it is destroyed', async () => {
    const db = new Kysely<{ items: { id: Generated<number>; name: string } }>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
    for (const name of ['a', 'b', 'c']) await db.insertInto('items').values({ name }).execute();
    expect(await db.selectFrom('items').select('name').where('name', 'in', ['a', 'c']).orderBy('name').execute()).toEqual([{ name: 'a' }, { name: 'c' }]);
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM items`.execute(db)).rows).toEqual([{ n: 3 }]);
    await db.destroy();
    expect(database.open).toBe(false);
  });
});

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { Pool } from 'pg';
import { isDatabaseUnavailable } from '../../../../../src/api/platform/storage/database-errors';
import { freePort } from '../../../../../src/embedded/free-port';

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('a database that cannot answer now, for the 503 mapping', () => {
  it('counts PostgreSQL refusing the connection, as pg reports it', async () => {
    const pool = new Pool({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/assay`, connectionTimeoutMillis: 1000 });
    const error = await pool.query('SELECT 1').catch((thrown: unknown) => thrown);
    await pool.end();
    expect(error).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a connection dropped under a query', new Error('Connection terminated unexpectedly')],
    ['no connection within connectionTimeoutMillis', new Error('timeout exceeded when trying to connect')],
    ['no answer within query_timeout', new Error('Query read timeout')],
    ['the server shutting down (57P01)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['the server starting (57P03)', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['a connection exception (08006)', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['no connection slot left (53300)', Object.assign(new Error('too many connections'), { code: '53300' })],
    ['every address refused', new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })], 'connect failed')],
  ])('counts %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('counts SQLite finding the database locked past its busy timeout', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-busy-'));
    const holder = new Database(path.join(dir, 'keys.sqlite'));
    const waiter = new Database(path.join(dir, 'keys.sqlite'), { timeout: 0 });
    try {
      holder.exec('BEGIN EXCLUSIVE');
      const error = thrownBy(() => waiter.exec('BEGIN EXCLUSIVE'));
      expect(error).toMatchObject({ code: 'SQLITE_BUSY' });
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      holder.close();
      waiter.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['a NUL in text (22021)', Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' })],
    ['a unique violation (23505)', Object.assign(new Error('duplicate key value'), { code: '23505' })],
    ['a SQLite constraint', Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' })],
    ['a defect', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['something not an error', 'boom'],
  ])('does not count %s: a real answer, or a defect', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { startTestPostgres, type TestPostgres } from '../support/test-postgres';

const run = promisify(execFile);
const CLI = path.join(__dirname, '../../bin/assay.js');
const PROCESSES = 4;

let postgres: TestPostgres;
let dataDir: string;

beforeAll(async () => {
  postgres = await startTestPostgres();
});

afterAll(async () => {
  await postgres?.stop();
});

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-concurrent-'));
});

afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The built operator CLI, as an operator runs it, with only PATH, DATA_DIR and `env`. */
async function assay(args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await run(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...env } });
  return stdout;
}

describe.each([
  ['a new SQLite file', async () => ({})],
  ['a new PostgreSQL database', async () => ({ DATABASE_URL: await postgres.createDatabase() })],
])('several processes opening %s at once', (_name, location) => {
  it('migrate it once between them, and each one writes', async () => {
    const env: Record<string, string> = await location();
    const issued = await Promise.all(
      Array.from({ length: PROCESSES }, async () => JSON.parse(await assay(['keys', 'issue', '--org', 'acme', '--env', 'test', '--json'], env)) as { id: string }),
    );
    const listed = JSON.parse(await assay(['keys', 'list', '--json'], env)) as Array<{ id: string }>;
    expect(listed.map((key) => key.id).sort()).toEqual(issued.map((key) => key.id).sort());
  });
});

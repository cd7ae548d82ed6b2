import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppConfig } from '../../../../src/common/config/app-config';
import type { StoredConsoleSession } from '../../../../src/common/storage/tables';
import { Storage } from '../../../../src/common/storage/storage';

let dir: string;
let storage: Storage;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-sessions-'));
  storage = await Storage.open(new AppConfig({ DATA_DIR: dir }));
});

afterEach(async () => {
  await storage.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function session(id: string, expiresAt: string): StoredConsoleSession {
  return { idHash: Buffer.from(id), csrfHash: Buffer.from(`csrf-${id}`), kind: 'customer', credentialId: 'key_1', createdAt: '2030-01-01T00:00:00.000Z', expiresAt };
}

describe('console session store', () => {
  it('finds a session until it expires, and clears expired ones without touching live ones', async () => {
    const sessions = storage.consoleSessions;
    await sessions.create(session('old', '2030-01-01T08:00:00.000Z'));
    await sessions.create(session('new', '2030-01-01T12:00:00.000Z'));
    expect(await sessions.find(Buffer.from('old'), '2030-01-01T07:59:59.000Z')).toMatchObject({ kind: 'customer', credentialId: 'key_1' });
    expect(await sessions.find(Buffer.from('old'), '2030-01-01T08:00:00.000Z')).toBeUndefined();

    await sessions.deleteExpired('2030-01-01T09:00:00.000Z');
    expect(await sessions.find(Buffer.from('old'), '2030-01-01T00:00:00.000Z')).toBeUndefined();
    expect(await sessions.find(Buffer.from('new'), '2030-01-01T09:00:00.000Z')).toBeDefined();

    await sessions.replaceCsrfHash(Buffer.from('new'), Buffer.from('csrf-2'));
    expect((await sessions.find(Buffer.from('new'), '2030-01-01T09:00:00.000Z'))?.csrfHash.toString()).toBe('csrf-2');
    await sessions.delete(Buffer.from('new'));
    expect(await sessions.find(Buffer.from('new'), '2030-01-01T09:00:00.000Z')).toBeUndefined();
  });
});

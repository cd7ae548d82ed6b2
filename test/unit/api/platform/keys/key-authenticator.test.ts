import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KeyAuthenticator } from '../../../../../src/api/platform/keys/key-authenticator';
import { KeyService } from '../../../../../src/common/keys/key-service';
import type { KeyUsageRecorder } from '../../../../../src/api/platform/keys/key-usage-recorder';
import { AppConfig } from '../../../../../src/common/config/app-config';
import type { KeyStore } from '../../../../../src/common/storage/key-store';
import { Storage } from '../../../../../src/common/storage/storage';

let dir: string;
let storage: Storage;
let store: KeyStore;
let service: KeyService;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-keys-'));
  storage = await Storage.open(new AppConfig({ DATA_DIR: dir }));
  store = storage.keys;
  service = new KeyService(store, 'assay');
});

afterEach(async () => {
  await storage.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('key store', () => {
  it('stores a hash and a prefix, never the secret', async () => {
    const issued = await service.issue('acme', 'test');
    const bytes = fs.readFileSync(path.join(dir, 'keys.sqlite'));
    const wal = fs.existsSync(path.join(dir, 'keys.sqlite-wal')) ? fs.readFileSync(path.join(dir, 'keys.sqlite-wal')) : Buffer.alloc(0);
    const secret = issued.key.slice('assay_test_'.length);
    expect(bytes.includes(secret)).toBe(false);
    expect(wal.includes(secret)).toBe(false);
    const [listed] = await service.list();
    expect(listed).toMatchObject({ id: issued.id, organizationId: 'acme', environment: 'test', revokedAt: null });
    expect(listed).not.toHaveProperty('hash');
  });

  it('keeps keys across reopening the file', async () => {
    const issued = await service.issue('acme', 'live');
    await storage.close();
    storage = await Storage.open(new AppConfig({ DATA_DIR: dir }));
    const authenticator = new KeyAuthenticator(storage.keys, 'assay', 0);
    expect(await authenticator.authenticate(issued.key)).toMatchObject({ organizationId: 'acme', environment: 'live' });
  });

  it('refuses organisation ids that could break workflow ids', async () => {
    await expect(service.issue('Acme/1', 'test')).rejects.toThrow(/organisation id/);
  });
});

describe('key authentication', () => {
  it('authenticates an issued key as its organisation and environment', async () => {
    const issued = await service.issue('acme', 'test');
    const caller = await new KeyAuthenticator(store, 'assay', 0).authenticate(issued.key);
    expect(caller).toEqual({ organizationId: 'acme', environment: 'test', keyId: issued.id });
  });

  it('refuses a revoked key once the cache entry expires', async () => {
    const issued = await service.issue('acme', 'test');
    const authenticator = new KeyAuthenticator(store, 'assay', 0);
    expect(await authenticator.authenticate(issued.key)).toBeDefined();
    expect(await service.revoke(issued.id)).toBe(true);
    expect(await authenticator.authenticate(issued.key)).toBeUndefined();
  });

  it('refuses another brand, an unknown key and a tampered environment prefix', async () => {
    const issued = await service.issue('acme', 'test');
    const authenticator = new KeyAuthenticator(store, 'assay', 0);
    expect(await authenticator.authenticate(issued.key.replace('assay_', 'other_'))).toBeUndefined();
    expect(await authenticator.authenticate(issued.key.replace('_test_', '_live_'))).toBeUndefined();
    expect(await authenticator.authenticate(`assay_test_${'A'.repeat(32)}`)).toBeUndefined();
  });

  it('revoking twice reports that nothing was active', async () => {
    const issued = await service.issue('acme', 'test');
    expect(await service.revoke(issued.id)).toBe(true);
    expect(await service.revoke(issued.id)).toBe(false);
  });
});

describe('expiry and use', () => {
  it('refuses a key whose grace period ended even while its lookup is cached', async () => {
    let now = Date.parse('2030-01-01T00:00:00.000Z');
    const clock = () => new Date(now);
    const rotating = new KeyService(store, 'assay', { clock });
    const issued = await rotating.issue('acme', 'test');
    await rotating.rotate(issued.id, { graceMs: 60_000 });
    const authenticator = new KeyAuthenticator(store, 'assay', 60_000, { clock });
    expect(await authenticator.authenticate(issued.key)).toBeDefined();
    now += 60_000;
    expect(await authenticator.authenticate(issued.key)).toBeUndefined();
  });

  it('reports each accepted key to the usage recorder and no refused one', async () => {
    const issued = await service.issue('acme', 'test');
    const noteUse = jest.fn();
    const authenticator = new KeyAuthenticator(store, 'assay', 0, { usage: { noteUse } as unknown as KeyUsageRecorder });
    await authenticator.authenticate(issued.key);
    await authenticator.authenticate(`assay_test_${'A'.repeat(32)}`);
    expect(noteUse).toHaveBeenCalledTimes(1);
    expect(noteUse).toHaveBeenCalledWith(issued.id, expect.any(Date));
  });
});

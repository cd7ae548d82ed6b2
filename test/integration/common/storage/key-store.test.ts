import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { KeyAuthenticator } from '../../../../src/api/platform/keys/key-authenticator';
import { hashCredential } from '../../../../src/common/credentials/credential-format';
import { API_KEYS } from '../../../../src/common/keys/api-key';
import { AppConfig } from '../../../../src/common/config/app-config';
import { KeyService } from '../../../../src/common/keys/key-service';
import type { KeyStore } from '../../../../src/common/storage/key-store';
import { Storage } from '../../../../src/common/storage/storage';
import { testPostgresPerFile } from '../../../support/test-postgres';

/** One empty database; open() may be called many times, as several processes would. */
interface StoreLocation {
  open(): Promise<Storage>;
  /** Everything the backend holds, to prove that no secret is in it. */
  rawContents(): Promise<string>;
  dispose(): Promise<void>;
}

const postgres = testPostgresPerFile();

async function sqliteLocation(): Promise<StoreLocation> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-keys-'));
  const file = path.join(dir, 'keys.sqlite');
  return {
    open: () => Storage.open(new AppConfig({ DATA_DIR: dir })),
    rawContents: async () =>
      [file, `${file}-wal`]
        .filter((candidate) => fs.existsSync(candidate))
        .map((candidate) => fs.readFileSync(candidate).toString('latin1'))
        .join('\n'),
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresLocation(): Promise<StoreLocation> {
  const url = await postgres().createDatabase();
  return {
    open: () => Storage.open(new AppConfig({ DATABASE_URL: url })),
    rawContents: () => dumpPostgres(url),
    dispose: async () => undefined,
  };
}

async function dumpPostgres(url: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const keys = await client.query<{ row: string; raw_hash: string }>(`SELECT row_to_json(k)::text AS row, encode(hash, 'escape') AS raw_hash FROM api_keys k`);
    const audit = await client.query<{ row: string }>('SELECT row_to_json(a)::text AS row FROM key_audit_log a');
    return [...keys.rows.map((row) => `${row.row} ${row.raw_hash}`), ...audit.rows.map((row) => row.row)].join('\n');
  } finally {
    await client.end();
  }
}

const START = Date.parse('2030-01-01T00:00:00.000Z');
const HOUR = 60 * 60 * 1000;

describe.each([
  ['SQLite', sqliteLocation],
  ['PostgreSQL', postgresLocation],
])('%s key store', (_backend, makeLocation) => {
  let location: StoreLocation;
  let storage: Storage;
  let store: KeyStore;
  let now: number;
  let service: KeyService;
  let authenticator: KeyAuthenticator;
  const clock = () => new Date(now);

  beforeEach(async () => {
    now = START;
    location = await makeLocation();
    storage = await location.open();
    store = storage.keys;
    service = new KeyService(store, 'assay', { actor: 'alice', clock });
    authenticator = new KeyAuthenticator(store, 'assay', 0, { clock });
  });

  afterEach(async () => {
    await storage.close();
    await location.dispose();
  });

  describe('issue and list', () => {
    it('authenticates an issued key as its organisation and environment', async () => {
      const issued = await service.issue('acme', 'live');
      expect(await authenticator.authenticate(issued.key)).toEqual({ organizationId: 'acme', environment: 'live', keyId: issued.id });
    });

    it('lists id, prefix, organisation, environment, created and last used, never the secret or the hash', async () => {
      const issued = await service.issue('acme', 'test');
      const [listed] = await service.list();
      expect(listed).toEqual({
        id: issued.id,
        prefix: `${issued.key.slice(0, 'assay_test_'.length + 6)}…`,
        organizationId: 'acme',
        environment: 'test',
        createdAt: new Date(START).toISOString(),
        revokedAt: null,
        expiresAt: null,
        lastUsedAt: null,
      });
      expect(JSON.stringify(listed)).not.toContain(issued.key.slice('assay_test_'.length + 6));
    });

    it('finds the keys created at or after an instant, revoked or not, and all of them without one', async () => {
      const first = await service.issue('acme', 'test');
      now += 60_000;
      const second = await service.issue('globex', 'live');
      await service.revoke(second.id);
      const ids = async (since?: string) => (await store.createdSince(since)).map((key) => key.id).sort();
      expect(await ids()).toEqual([first.id, second.id].sort());
      expect(await ids(new Date(START + 60_000).toISOString())).toEqual([second.id]);
      expect(await ids(new Date(START + 60_001).toISOString())).toEqual([]);
      expect(await authenticator.isKnown(second.key)).toBe(true);
      expect(await authenticator.isKnown(API_KEYS.format.generate('assay', 'test'))).toBe(false);
    });

    it('stores a hash and a prefix, never the secret', async () => {
      const issued = await service.issue('acme', 'test');
      await service.rotate(issued.id, { graceMs: HOUR });
      const raw = await location.rawContents();
      expect(raw).toContain(issued.id);
      expect(raw).not.toContain(issued.key.slice('assay_test_'.length));
      expect(raw).not.toContain(issued.key.slice('assay_test_'.length + 6, 'assay_test_'.length + 16));
    });

    it('refuses organisation ids that could break workflow ids', async () => {
      await expect(service.issue('Acme/1', 'test')).rejects.toThrow(/organisation id/);
      expect(await service.list()).toEqual([]);
    });
  });

  describe('active keys of an environment', () => {
    it('finds a live key until it is revoked or its grace period ends, and never counts a test key', async () => {
      const at = (ms: number) => new Date(ms).toISOString();
      await service.issue('acme', 'test');
      expect(await store.hasActiveKey('live', at(START))).toBe(false);
      const ending = await service.issue('acme', 'live');
      await store.apply({ at: at(START), end: { id: ending.id, expiresAt: at(START + HOUR) }, audit: [] });
      expect(await store.hasActiveKey('live', at(START + HOUR - 1))).toBe(true);
      expect(await store.hasActiveKey('live', at(START + HOUR))).toBe(false);
      const revoked = await service.issue('acme', 'live');
      expect(await store.hasActiveKey('live', at(START + HOUR))).toBe(true);
      await service.revoke(revoked.id);
      expect(await store.hasActiveKey('live', at(START + HOUR))).toBe(false);
    });
  });

  describe('migrations', () => {
    it('keeps keys across reopening and migrates an up-to-date store to no effect', async () => {
      const issued = await service.issue('acme', 'test');
      await storage.close();
      storage = await location.open();
      await storage.close();
      storage = await location.open();
      expect(await new KeyAuthenticator(storage.keys, 'assay', 0).authenticate(issued.key)).toMatchObject({ keyId: issued.id });
    });

    it('lets several processes open a new store at the same time', async () => {
      const fresh = await makeLocation();
      const opened = await Promise.all([fresh.open(), fresh.open(), fresh.open()]);
      const issued = await new KeyService(opened[0].keys, 'assay').issue('acme', 'test');
      for (const other of opened) {
        expect((await other.keys.findById(issued.id))?.organizationId).toBe('acme');
        await other.close();
      }
      await fresh.dispose();
    });
  });

  describe('revoke', () => {
    it('refuses a revoked key', async () => {
      const issued = await service.issue('acme', 'test');
      expect(await service.revoke(issued.id)).toBe(true);
      expect(await authenticator.authenticate(issued.key)).toBeUndefined();
      expect((await service.list())[0].revokedAt).toBe(new Date(START).toISOString());
    });

    it('reports that nothing was active when revoking twice or an unknown id', async () => {
      const issued = await service.issue('acme', 'test');
      expect(await service.revoke(issued.id)).toBe(true);
      expect(await service.revoke(issued.id)).toBe(false);
      expect(await service.revoke('key_01JAAAAAAAAAAAAAAAAAAAAAAA')).toBe(false);
    });
  });

  describe('rotate', () => {
    it('without a grace period, issues a key for the same organisation and environment and revokes the old one at once', async () => {
      const old = await service.issue('acme', 'live');
      const rotated = await service.rotate(old.id);
      expect(rotated?.issued).toMatchObject({ org: 'acme', env: 'live' });
      expect(rotated?.issued.id).not.toBe(old.id);
      expect(rotated?.replacedKeyEndsAt).toBe(new Date(START).toISOString());
      expect(await authenticator.authenticate(old.key)).toBeUndefined();
      expect(await authenticator.authenticate(rotated!.issued.key)).toMatchObject({ organizationId: 'acme', environment: 'live' });
    });

    it('with a grace period, keeps the old key working until the period ends, then refuses it', async () => {
      const old = await service.issue('acme', 'test');
      const rotated = await service.rotate(old.id, { graceMs: HOUR });
      expect(rotated?.replacedKeyEndsAt).toBe(new Date(START + HOUR).toISOString());
      now = START + HOUR - 1;
      expect(await authenticator.authenticate(old.key)).toMatchObject({ keyId: old.id });
      now = START + HOUR;
      expect(await authenticator.authenticate(old.key)).toBeUndefined();
      expect(await authenticator.authenticate(rotated!.issued.key)).toMatchObject({ keyId: rotated!.issued.id });
    });

    it('never lets a second rotation extend the old key beyond its first grace period', async () => {
      const old = await service.issue('acme', 'test');
      await service.rotate(old.id, { graceMs: HOUR });
      const second = await service.rotate(old.id, { graceMs: 24 * HOUR });
      expect(second?.replacedKeyEndsAt).toBe(new Date(START + HOUR).toISOString());
    });

    it('ends a key in its grace period at once when it is revoked', async () => {
      const old = await service.issue('acme', 'test');
      await service.rotate(old.id, { graceMs: HOUR });
      expect(await service.revoke(old.id)).toBe(true);
      expect(await authenticator.authenticate(old.key)).toBeUndefined();
    });

    it('treats an expired key as ended: no rotation, no revocation, nothing issued', async () => {
      const old = await service.issue('acme', 'test');
      await service.rotate(old.id, { graceMs: HOUR });
      now = START + 2 * HOUR;
      const keysBefore = await service.list();
      expect(await service.rotate(old.id)).toBeUndefined();
      expect(await service.revoke(old.id)).toBe(false);
      expect(await service.list()).toEqual(keysBefore);
    });

    it('issues nothing when rotating a revoked or unknown key', async () => {
      const old = await service.issue('acme', 'test');
      await service.revoke(old.id);
      expect(await service.rotate(old.id)).toBeUndefined();
      expect(await service.rotate('key_01JAAAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined();
      expect(await service.list()).toHaveLength(1);
      expect((await service.audit({ limit: 100 })).map((entry) => entry.action)).toEqual(['issue', 'revoke']);
    });
  });

  describe('audit log', () => {
    it('records who did what to which key and when, for every operation', async () => {
      const first = await service.issue('acme', 'test');
      now += 1000;
      const rotated = await service.rotate(first.id, { graceMs: HOUR, reason: 'scheduled' });
      now += 1000;
      await new KeyService(store, 'assay', { actor: 'bob', clock }).revoke(rotated!.issued.id, 'leaked in a CI log');
      const at = (offset: number) => new Date(START + offset).toISOString();
      const entries = await service.audit({ limit: 100 });
      expect(entries.map(({ id: _id, ...entry }) => entry)).toEqual([
        { at: at(0), actor: 'alice', action: 'issue', keyId: first.id, organizationId: 'acme', environment: 'test', details: {} },
        {
          at: at(1000),
          actor: 'alice',
          action: 'rotate',
          keyId: first.id,
          organizationId: 'acme',
          environment: 'test',
          details: { replaced_by: rotated!.issued.id, grace_seconds: 3600, ends_at: at(1000 + HOUR), reason: 'scheduled' },
        },
        { at: at(1000), actor: 'alice', action: 'issue', keyId: rotated!.issued.id, organizationId: 'acme', environment: 'test', details: { rotated_from: first.id } },
        { at: at(2000), actor: 'bob', action: 'revoke', keyId: rotated!.issued.id, organizationId: 'acme', environment: 'test', details: { reason: 'leaked in a CI log' } },
      ]);
      const text = JSON.stringify(entries);
      for (const key of [first.key, rotated!.issued.key]) expect(text).not.toContain(key.slice('assay_test_'.length));
    });

    it('returns the newest entries oldest first, optionally for one key', async () => {
      const keys = [];
      for (let i = 0; i < 4; i++) {
        now += 1000;
        keys.push(await service.issue('acme', 'test'));
      }
      expect((await service.audit({ limit: 2 })).map((entry) => entry.keyId)).toEqual([keys[2].id, keys[3].id]);
      await service.revoke(keys[0].id);
      expect((await service.audit({ keyId: keys[0].id, limit: 10 })).map((entry) => entry.action)).toEqual(['issue', 'revoke']);
    });
  });

  describe('last use', () => {
    it('moves last_used_at forward and never back', async () => {
      const issued = await service.issue('acme', 'test');
      await store.recordUse(issued.id, new Date(START + 2000));
      await store.recordUse(issued.id, new Date(START + 1000));
      expect((await service.list())[0].lastUsedAt).toBe(new Date(START + 2000).toISOString());
    });
  });
});

describe('SQLite schema upgrade', () => {
  it('upgrades a key file from the first schema version, keeping its keys working', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-keys-v1-'));
    const file = path.join(dir, 'keys.sqlite');
    const key = 'assay_test_abcdefghijklmnopqrstuvwxyz012345';
    const v1 = new Database(file);
    v1.exec(`CREATE TABLE api_keys (
      id TEXT PRIMARY KEY, organization_id TEXT NOT NULL,
      environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
      prefix TEXT NOT NULL, hash BLOB NOT NULL UNIQUE, created_at TEXT NOT NULL, revoked_at TEXT)`);
    v1.prepare('INSERT INTO api_keys VALUES (?, ?, ?, ?, ?, ?, NULL)').run('key_v1', 'acme', 'test', API_KEYS.format.visiblePrefix(key), hashCredential(key), '2025-01-01T00:00:00.000Z');
    v1.pragma('user_version = 1');
    v1.close();

    const storage = await Storage.open(new AppConfig({ DATA_DIR: dir }));
    const store = storage.keys;
    const service = new KeyService(store, 'assay', { actor: 'alice' });
    expect(await new KeyAuthenticator(store, 'assay', 0).authenticate(key)).toMatchObject({ keyId: 'key_v1' });
    expect(await service.rotate('key_v1', { graceMs: HOUR })).toBeDefined();
    expect((await service.audit({ keyId: 'key_v1', limit: 10 })).map((entry) => entry.action)).toEqual(['rotate']);
    await storage.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { AppConfig, InvalidConfigError } from '../../../../src/common/config/app-config';
import { checkLiveKeyIssue, checkPayloadEncryptionAtStart, refusesPlaintext } from '../../../../src/common/config/payload-encryption-check';
import { generateEncryptionKeyEntry } from '../../../../src/common/crypto/encryption-keys';
import { KEY_ENVIRONMENTS, type KeyEnvironment } from '../../../../src/common/keys/api-key';
import { KeyService } from '../../../../src/common/keys/key-service';
import { createLogger } from '../../../../src/common/logging/create-logger';
import { Storage } from '../../../../src/common/storage/storage';

const REFUSAL = /PAYLOAD_ENCRYPTION_KEYS: live API keys need payload encryption/;
const WARNING = 'payload encryption is off';

let dataDir: string;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-encryption-check-'));
});

afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Issues a key into the data directory's key store, as the operator CLI would. */
async function issue(env: KeyEnvironment): Promise<{ id: string; service: KeyService; storage: Storage }> {
  const storage = await Storage.open(new AppConfig({ DATA_DIR: dataDir }));
  const service = new KeyService(storage.keys, 'assay', { actor: 'test' });
  return { id: (await service.issue('acme', env)).id, service, storage };
}

async function start(served: readonly KeyEnvironment[], env: Record<string, string> = {}): Promise<{ warnings: string[] }> {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  await checkPayloadEncryptionAtStart(new AppConfig({ DATA_DIR: dataDir, ...env }), served, createLogger('info', 'api', destination));
  return { warnings: lines.map((line) => JSON.parse(line)).filter((line) => line.level === 'warn').map((line) => line.msg) };
}

describe('payload encryption at a process start', () => {
  it('refuses to serve production without keys once an active live key exists', async () => {
    await (await issue('live')).storage.close();
    const refused = start(KEY_ENVIRONMENTS);
    await expect(refused).rejects.toThrow(InvalidConfigError);
    await expect(refused).rejects.toThrow(REFUSAL);
  });

  it('starts on PAYLOAD_ENCRYPTION=off and warns', async () => {
    await (await issue('live')).storage.close();
    expect((await start(KEY_ENVIRONMENTS, { PAYLOAD_ENCRYPTION: 'off' })).warnings).toEqual([expect.stringContaining(`${WARNING} (PAYLOAD_ENCRYPTION=off`)]);
  });

  it('lets a sandbox-only worker, only test keys or only ended live keys run without keys, with the warning', async () => {
    const { id, service, storage } = await issue('live');
    try {
      expect((await start(['test'])).warnings).toEqual([expect.stringContaining(WARNING)]);
      await service.revoke(id);
      await service.issue('acme', 'test');
      expect((await start(KEY_ENVIRONMENTS)).warnings).toEqual([expect.stringContaining(WARNING)]);
    } finally {
      await storage.close();
    }
  });

  it('says nothing, and leaves the key store alone, when keys are configured', async () => {
    expect((await start(KEY_ENVIRONMENTS, { PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('k') })).warnings).toEqual([]);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});

describe('at the point of use', () => {
  it('refuses production, and only production, without keys unless PAYLOAD_ENCRYPTION=off, whatever keys exist', () => {
    const config = (env: Record<string, string> = {}) => new AppConfig({ DATA_DIR: dataDir, ...env });
    expect(refusesPlaintext(config(), 'live')).toBe(true);
    expect(refusesPlaintext(config(), 'test')).toBe(false);
    expect(refusesPlaintext(config({ PAYLOAD_ENCRYPTION: 'off' }), 'live')).toBe(false);
    expect(refusesPlaintext(config({ PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('k') }), 'live')).toBe(false);
  });
});

describe('issuing a live key', () => {
  it("follows what the API said on starting, not the settings of the process that asks", async () => {
    const storage = await Storage.open(new AppConfig({ DATA_DIR: dataDir, PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('cli') }));
    try {
      await expect(checkLiveKeyIssue(storage.apiEncryption)).rejects.toThrow(/no API has started on this key store yet/);
      await storage.apiEncryption.record({ productionData: 'refused', reportedAt: '2030-01-01T00:00:00.000Z' });
      await expect(checkLiveKeyIssue(storage.apiEncryption)).rejects.toThrow(/the API that started last \(at 2030-01-01T00:00:00.000Z\) has no encryption key/);
      for (const productionData of ['encrypted', 'plaintext'] as const) {
        await storage.apiEncryption.record({ productionData, reportedAt: '2030-01-01T00:01:00.000Z' });
        await expect(checkLiveKeyIssue(storage.apiEncryption)).resolves.toBeUndefined();
      }
    } finally {
      await storage.close();
    }
  });
});

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppConfig } from '../../src/common/config/app-config';
import { generateEncryptionKeyEntry } from '../../src/common/crypto/encryption-keys';
import { KeyService } from '../../src/common/keys/key-service';
import { Storage } from '../../src/common/storage/storage';
import { freePort } from '../../src/embedded/free-port';
import { BuiltService, type BuiltEntrypoint } from '../support/built-service';

const REFUSAL = 'Invalid configuration:\n  PAYLOAD_ENCRYPTION_KEYS: live API keys need payload encryption: set PAYLOAD_ENCRYPTION_KEYS or PAYLOAD_ENCRYPTION_KEYS_FILE, or PAYLOAD_ENCRYPTION=off to store production data in plaintext';
const LISTENING = /listening on http/;
const WARNING = /"level":"warn".*"msg":"payload encryption is off \(PAYLOAD_ENCRYPTION=off and no encryption key\): [^"]*plaintext"/;

let dataDir: string;
const started: BuiltService[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-fails-closed-'));
  // A deployment with a customer in production, as the operator CLI leaves it.
  const storage = await Storage.open(new AppConfig({ DATA_DIR: dataDir }));
  try {
    await new KeyService(storage.keys, 'assay', { actor: 'test' }).issue('acme', 'live');
  } finally {
    await storage.close();
  }
});

afterAll(async () => {
  await Promise.all(started.map((service) => service.kill()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The built process on the data directory, with Temporal nowhere: what is checked here comes before any connection. */
async function env(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return { DATA_DIR: dataDir, PORT: String(await freePort()), TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`, WORKER_METRICS_PORT: '0', LOG_LEVEL: 'info', ...extra };
}

async function refusal(name: BuiltEntrypoint): Promise<void> {
  const service = BuiltService.spawn(name, await env());
  started.push(service);
  expect(await service.exited).toEqual({ code: 2, signal: null });
  const lines = service.log.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0])).toMatchObject({ level: 'fatal', process: name, msg: REFUSAL });
}

describe('encryption fails closed once live keys exist', () => {
  it('the API refuses to start without encryption keys, in one line naming the settings, exit 2', async () => {
    await refusal('api');
  });

  it('so does a worker serving production', async () => {
    await refusal('worker');
  });

  it('the API starts on PAYLOAD_ENCRYPTION=off and says at start that it stores in plaintext', async () => {
    const api = await BuiltService.start('api', await env({ PAYLOAD_ENCRYPTION: 'off' }), LISTENING);
    started.push(api);
    expect(api.log).toMatch(WARNING);
  });

  it('the API starts silently with encryption keys', async () => {
    const api = await BuiltService.start('api', await env({ PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('k') }), LISTENING);
    started.push(api);
    expect(api.log).not.toContain('"level":"warn"');
  });
});

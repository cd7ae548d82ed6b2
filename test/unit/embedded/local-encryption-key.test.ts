import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppConfig } from '../../../src/common/config/app-config';
import { generateEncryptionKeyEntry } from '../../../src/common/crypto/encryption-keys';
import { ensureLocalEncryptionKey } from '../../../src/embedded/local-encryption-key';

let dataDir: string;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-local-key-'));
});

afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('ensureLocalEncryptionKey', () => {
  it('makes an owner-only key file on the first start that the configuration then reads, and keeps it', async () => {
    const config = new AppConfig({ DATA_DIR: dataDir });
    ensureLocalEncryptionKey(config);
    expect(fs.statSync(config.localKeyFile).mode & 0o777).toBe(0o600);
    const first = fs.readFileSync(config.localKeyFile, 'utf8');
    expect((await new AppConfig({ DATA_DIR: dataDir }).keyRing!.current()).id).toMatch(/^local-\d{4}-\d{2}-\d{2}$/);
    ensureLocalEncryptionKey(new AppConfig({ DATA_DIR: dataDir }));
    expect(fs.readFileSync(config.localKeyFile, 'utf8')).toBe(first);
  });

  it('makes no file when the operator configured keys', () => {
    const config = new AppConfig({ DATA_DIR: dataDir, PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('ops') });
    ensureLocalEncryptionKey(config);
    expect(fs.existsSync(config.localKeyFile)).toBe(false);
  });
});

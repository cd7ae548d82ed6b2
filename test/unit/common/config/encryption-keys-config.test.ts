import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppConfig } from '../../../../src/common/config/app-config';
import { generateEncryptionKeyEntry } from '../../../../src/common/crypto/encryption-keys';

let dataDir: string;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-keys-config-'));
});

afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('encryption key configuration', () => {
  it('has no key ring when no key is configured and the data directory has no key file', () => {
    expect(new AppConfig({ DATA_DIR: dataDir }).keyRing).toBeUndefined();
  });

  it('encrypts with the first inline key and decrypts with every one', async () => {
    const ring = new AppConfig({ DATA_DIR: dataDir, PAYLOAD_ENCRYPTION_KEYS: `${generateEncryptionKeyEntry('new')},${generateEncryptionKeyEntry('old')}` }).keyRing!;
    expect((await ring.current()).id).toBe('new');
    expect((await ring.byId('old'))?.id).toBe('old');
    expect(await ring.byId('unknown')).toBeUndefined();
  });

  it('reads PAYLOAD_ENCRYPTION_KEYS_FILE, and else the data directory key file npm start makes', async () => {
    const file = path.join(dataDir, 'keys.txt');
    fs.writeFileSync(file, `${generateEncryptionKeyEntry('from-file')}\n`);
    expect((await new AppConfig({ DATA_DIR: dataDir, PAYLOAD_ENCRYPTION_KEYS_FILE: file }).keyRing!.current()).id).toBe('from-file');
    fs.writeFileSync(path.join(dataDir, 'encryption-keys'), `${generateEncryptionKeyEntry('local')}\n`);
    expect((await new AppConfig({ DATA_DIR: dataDir }).keyRing!.current()).id).toBe('local');
  });

  it('names the setting and never the key when the keys are wrong', () => {
    const secret = Buffer.alloc(16, 7).toString('base64');
    expect(() => new AppConfig({ DATA_DIR: dataDir, PAYLOAD_ENCRYPTION_KEYS: `k:${secret}` }).keyRing).toThrow(/PAYLOAD_ENCRYPTION_KEYS: key 1 \("k"\) must be 32 bytes/);
    expect(() => new AppConfig({ DATA_DIR: dataDir, PAYLOAD_ENCRYPTION_KEYS: `k:${secret}` }).keyRing).not.toThrow(secret);
    expect(() => new AppConfig({ DATA_DIR: dataDir, PAYLOAD_ENCRYPTION_KEYS_FILE: path.join(dataDir, 'missing') }).keyRing).toThrow(/PAYLOAD_ENCRYPTION_KEYS_FILE: cannot read .* \(ENOENT\)/);
    expect(() => new AppConfig({ DATA_DIR: dataDir, PAYLOAD_ENCRYPTION_KEYS: 'a', PAYLOAD_ENCRYPTION_KEYS_FILE: 'b' })).toThrow(/not both/);
  });
});

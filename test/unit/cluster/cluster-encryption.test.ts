import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureClusterEncryption } from '../../../src/cluster/cluster-encryption';
import { AppConfig, InvalidConfigError } from '../../../src/common/config/app-config';
import { productionDataHandling } from '../../../src/common/config/payload-encryption-check';
import { generateEncryptionKeyEntry } from '../../../src/common/crypto/encryption-keys';

let dir: string;
let dataDir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-cluster-encryption-'));
  dataDir = path.join(dir, 'assay');
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('payload encryption on npm run cluster', () => {
  it.each([
    ['no key setting', {}],
    ['PAYLOAD_ENCRYPTION=off', { PAYLOAD_ENCRYPTION: 'off' }],
  ])('with %s in the shell, makes a key that its API instances and workers encrypt production with', (_shell, shell) => {
    const env = { ...shell, DATA_DIR: dataDir };
    ensureClusterEncryption(env);
    expect(productionDataHandling(new AppConfig(env))).toBe('encrypted');
    expect(fs.statSync(path.join(dataDir, 'encryption-keys')).mode & 0o777).toBe(0o600);
  });

  it('keeps the key file of an earlier run, which what is stored needs', () => {
    ensureClusterEncryption({ DATA_DIR: dataDir });
    const first = fs.readFileSync(path.join(dataDir, 'encryption-keys'), 'utf8');
    ensureClusterEncryption({ DATA_DIR: dataDir });
    expect(fs.readFileSync(path.join(dataDir, 'encryption-keys'), 'utf8')).toBe(first);
  });

  it('uses the keys the shell configures, and writes none', () => {
    const env = { DATA_DIR: dataDir, PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('shell') };
    ensureClusterEncryption(env);
    expect(productionDataHandling(new AppConfig(env))).toBe('encrypted');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('stops at a key setting that holds no usable key, naming it, before any process starts', () => {
    const start = () => ensureClusterEncryption({ DATA_DIR: dataDir, PAYLOAD_ENCRYPTION_KEYS_FILE: path.join(dir, 'missing') });
    expect(start).toThrow(InvalidConfigError);
    expect(start).toThrow(/^Invalid configuration:\n {2}PAYLOAD_ENCRYPTION_KEYS_FILE: cannot read .*missing \(ENOENT\)$/);
  });
});

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppConfig } from '../../../../src/common/config/app-config';
import { KeyService } from '../../../../src/common/keys/key-service';
import { Storage } from '../../../../src/common/storage/storage';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('SQLite storage files', () => {
  let parent: string;
  let usualUmask: number;

  beforeEach(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-modes-'));
    // The usual umask, under which a file created without an explicit mode is readable by everyone.
    usualUmask = process.umask(0o022);
  });

  afterEach(() => {
    process.umask(usualUmask);
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it('creates DATA_DIR for its owner only, and the database with its -wal and -shm readable by the owner only', async () => {
    const dataDir = path.join(parent, 'data');
    const storage = await Storage.open(new AppConfig({ DATA_DIR: dataDir }));
    try {
      await new KeyService(storage.keys, 'assay').issue('acme', 'test');
      expect(modeOf(dataDir)).toBe(0o700);
      const files = ['keys.sqlite', 'keys.sqlite-wal', 'keys.sqlite-shm'];
      expect(files.map((file) => [file, modeOf(path.join(dataDir, file))])).toEqual(files.map((file) => [file, 0o600]));
    } finally {
      await storage.close();
    }
  });
});

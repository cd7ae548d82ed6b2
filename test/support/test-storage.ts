import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppConfig } from '../../src/common/config/app-config';
import { Storage } from '../../src/common/storage/storage';
import type { TestPostgres } from './test-postgres';

/** An empty Storage, and where its database lives, for a test that also reads or writes it directly. */
export type TestStorage = { storage: Storage; dispose(): Promise<void> } & ({ kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string });

/** `describe.each` rows: each backend the service supports, opening a fresh, empty database per call. */
export function testStorageBackends(postgres: () => TestPostgres): Array<[string, () => Promise<TestStorage>]> {
  return [
    [
      'SQLite',
      async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-storage-'));
        const config = new AppConfig({ DATA_DIR: dir });
        const storage = await Storage.open(config);
        const dispose = async () => {
          await storage.close();
          fs.rmSync(dir, { recursive: true, force: true });
        };
        return { kind: 'sqlite', file: config.keyDatabasePath, storage, dispose };
      },
    ],
    [
      'PostgreSQL',
      async () => {
        const url = await postgres().createDatabase();
        const storage = await Storage.open(new AppConfig({ DATABASE_URL: url }));
        return { kind: 'postgres', url, storage, dispose: () => storage.close() };
      },
    ],
  ];
}

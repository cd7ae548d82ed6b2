import type { AppConfig } from '../config/app-config';
import type { KeyStore } from './key-store';
import { PostgresKeyStore } from './postgres-key-store';
import { SqliteKeyStore } from './sqlite-key-store';

/** PostgreSQL when DATABASE_URL is set (several API instances), else the SQLite file in DATA_DIR. Migrated before it returns. */
export async function openKeyStore(config: AppConfig): Promise<KeyStore> {
  const url = config.values.DATABASE_URL;
  return url ? PostgresKeyStore.open(url) : new SqliteKeyStore(config.keyDatabasePath);
}

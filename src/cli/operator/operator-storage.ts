import { AppConfig } from '../../common/config/app-config';
import { Storage } from '../../common/storage/storage';
import { KeyStoreUnavailableError } from './credential-errors';

/**
 * Runs `use` on the store the API uses (PostgreSQL at DATABASE_URL, else the SQLite file in
 * DATA_DIR) with the configured key brand, and closes it.
 */
export async function withOperatorStorage<T>(env: Record<string, string | undefined>, use: (storage: Storage, brand: string) => Promise<T>): Promise<T> {
  const config = new AppConfig(env);
  const storage = await Storage.open(config).catch((error: unknown) => {
    throw new KeyStoreUnavailableError(config.values.DATABASE_URL ? 'PostgreSQL at DATABASE_URL' : `SQLite in ${config.dataDir}`, error);
  });
  try {
    return await use(storage, config.values.API_KEY_BRAND);
  } finally {
    await storage.close();
  }
}

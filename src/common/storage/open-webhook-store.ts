import type { AppConfig } from '../config/app-config';
import { PostgresWebhookStore } from './postgres-webhook-store';
import { SqliteWebhookStore } from './sqlite-webhook-store';
import type { WebhookStore } from './webhook-store';

/** Next to the keys: the same PostgreSQL database when DATABASE_URL is set, else the same SQLite file. Migrated before it returns. */
export async function openWebhookStore(config: AppConfig): Promise<WebhookStore> {
  const url = config.values.DATABASE_URL;
  return url ? PostgresWebhookStore.open(url) : new SqliteWebhookStore(config.keyDatabasePath);
}

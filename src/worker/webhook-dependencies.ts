import type { WebhookActivityDependencies } from '../../activities/webhooks/webhook-activities';
import type { AppConfig } from '../common/config/app-config';
import type { KeyEnvironment } from '../common/keys/api-key';
import { openWebhookStore } from '../common/storage/open-webhook-store';
import type { WebhookStore } from '../common/storage/webhook-store';

/**
 * One store per location for the whole worker process: workers are created again after a
 * restart in the same process (tests do this), and they share it. It lives as long as the
 * process; a SQLite handle holds nothing open and the PostgreSQL pool lets idle connections go.
 */
const stores = new Map<string, Promise<WebhookStore>>();

/** What the webhook activities need, from the worker's configuration. */
export async function webhookActivityDependencies(config: AppConfig): Promise<WebhookActivityDependencies> {
  const location = config.values.DATABASE_URL ?? config.keyDatabasePath;
  let store = stores.get(location);
  if (!store) {
    store = openWebhookStore(config);
    stores.set(location, store);
    store.catch(() => stores.delete(location));
  }
  const values = config.values;
  const namespaces: Record<string, KeyEnvironment> = {
    [values.TEMPORAL_NAMESPACE_SANDBOX]: 'test',
    [values.TEMPORAL_NAMESPACE_PRODUCTION]: 'live',
  };
  return {
    store: await store,
    retry: {
      initialIntervalMs: values.WEBHOOK_RETRY_INITIAL_INTERVAL,
      maximumIntervalMs: values.WEBHOOK_RETRY_MAX_INTERVAL,
      windowMs: values.WEBHOOK_RETRY_WINDOW,
    },
    allowInsecureSandbox: values.WEBHOOKS_ALLOW_INSECURE_SANDBOX,
    environmentOf: (namespace) => {
      const environment = namespaces[namespace];
      if (!environment) throw new Error(`namespace ${namespace} serves no environment`);
      return environment;
    },
  };
}

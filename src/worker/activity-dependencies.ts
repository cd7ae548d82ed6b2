import type { BatchActivityDependencies } from '../../activities/batches/batch-activities';
import type { UsageActivityDependencies } from '../../activities/usage/usage-activities';
import { organizationPriority } from '../common/temporal/organization-priority';
import type { WebhookActivityDependencies } from '../../activities/webhooks/webhook-activities';
import type { AppConfig } from '../common/config/app-config';
import type { KeyEnvironment } from '../common/keys/api-key';
import { Storage } from '../common/storage/storage';
import { batchTaskQueue } from '../contract';

/**
 * One database handle per location for the whole worker process: workers are created again
 * after a restart in the same process (tests do this), and they share it. It lives as long as
 * the process; the PostgreSQL pool lets idle connections go, so it never keeps the process alive.
 */
const storages = new Map<string, Promise<Storage>>();

/** The worker process's database handle for the configured location. */
export function workerStorage(config: AppConfig): Promise<Storage> {
  const location = config.values.DATABASE_URL ?? config.keyDatabasePath;
  let storage = storages.get(location);
  if (!storage) {
    storage = Storage.open(config);
    storages.set(location, storage);
    storage.catch(() => storages.delete(location));
  }
  return storage;
}

/** The environment a namespace serves, from the worker's configuration. */
export function environmentOfNamespace(config: AppConfig): (namespace: string) => KeyEnvironment {
  const namespaces: Record<string, KeyEnvironment> = {
    [config.values.TEMPORAL_NAMESPACE_SANDBOX]: 'test',
    [config.values.TEMPORAL_NAMESPACE_PRODUCTION]: 'live',
  };
  return (namespace) => {
    const environment = namespaces[namespace];
    if (!environment) throw new Error(`namespace ${namespace} serves no environment`);
    return environment;
  };
}

/** What the usage activities need, from the worker's configuration. */
export async function usageActivityDependencies(config: AppConfig): Promise<UsageActivityDependencies> {
  return {
    store: (await workerStorage(config)).usage,
    priceOf: (model) => config.models.remote(model),
    environmentOf: environmentOfNamespace(config),
  };
}

/** What the webhook activities need, from the worker's configuration. */
export async function webhookActivityDependencies(config: AppConfig): Promise<WebhookActivityDependencies> {
  const storage = workerStorage(config);
  const values = config.values;
  return {
    store: (await storage).webhooks,
    retry: {
      initialIntervalMs: values.WEBHOOK_RETRY_INITIAL_INTERVAL,
      maximumIntervalMs: values.WEBHOOK_RETRY_MAX_INTERVAL,
      windowMs: values.WEBHOOK_RETRY_WINDOW,
    },
    allowInsecureSandbox: values.WEBHOOKS_ALLOW_INSECURE_SANDBOX,
    retentionMs: values.RETENTION_PERIOD,
    environmentOf: environmentOfNamespace(config),
  };
}

/** What the batch activities need: the store of staged items, and where and how a create starts a task. */
export async function batchActivityDependencies(config: AppConfig): Promise<BatchActivityDependencies> {
  return {
    store: (await workerStorage(config)).batchItems,
    taskQueue: batchTaskQueue(config.values.TEMPORAL_TASK_QUEUE),
    priorityFor: (organizationId, priority) => organizationPriority(organizationId, config.values.FAIRNESS_WEIGHTS, priority),
    environmentOf: environmentOfNamespace(config),
    otherNamespace: (namespace) => (namespace === config.values.TEMPORAL_NAMESPACE_PRODUCTION ? config.values.TEMPORAL_NAMESPACE_SANDBOX : config.values.TEMPORAL_NAMESPACE_PRODUCTION),
    inFlightWindow: config.values.ADMISSION_ALONE_IN_FLIGHT,
  };
}

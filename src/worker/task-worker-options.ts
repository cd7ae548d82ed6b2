import type { WorkerOptions } from '@temporalio/worker';
import type { AppConfig } from '../common/config/app-config';
import type { KeyEnvironment } from '../common/keys/api-key';
import { assayDataConverter } from '../common/temporal/data-converter';
import { defaultStickyCacheSize, machineStickyCacheBudget } from './sticky-cache-size';

/** What the task worker of an environment's namespace sets beyond the SDK's defaults: its codec, its slots and its cache (WORKER_MAX_CACHED_WORKFLOWS, or sized to the machine). */
export type TaskWorkerOptions = Pick<
  WorkerOptions,
  'dataConverter' | 'maxConcurrentWorkflowTaskExecutions' | 'maxConcurrentActivityTaskExecutions' | 'maxConcurrentLocalActivityExecutions' | 'maxCachedWorkflows'
>;

/**
 * Each environment's worker has slots of its own (WORKER_SLOTS_*, WORKER_ACTIVITY_SLOTS_*), so a
 * sandbox flood fills only the sandbox's; the summary's local activity gets as many slots as
 * workflow tasks, since each task runs one. The raw-engine bench runs with the same options to
 * compare like for like.
 */
export function taskWorkerOptions(config: AppConfig, environment: KeyEnvironment): TaskWorkerOptions {
  const { values } = config;
  const slots = environment === 'test' ? values.WORKER_SLOTS_SANDBOX : values.WORKER_SLOTS_PRODUCTION;
  return {
    dataConverter: assayDataConverter(config),
    maxConcurrentWorkflowTaskExecutions: slots,
    maxConcurrentActivityTaskExecutions: environment === 'test' ? values.WORKER_ACTIVITY_SLOTS_SANDBOX : values.WORKER_ACTIVITY_SLOTS_PRODUCTION,
    maxConcurrentLocalActivityExecutions: slots,
    maxCachedWorkflows: values.WORKER_MAX_CACHED_WORKFLOWS ?? defaultStickyCacheSize(machineStickyCacheBudget(values.WORKER_ENVIRONMENTS.length, config.tracing !== undefined)),
  };
}

/** The worker of an environment's batch queue: the task worker's codec and activity slots, and WORKER_BATCH_SLOTS for workflow tasks and local activities. */
export function batchWorkerOptions(config: AppConfig, environment: KeyEnvironment): TaskWorkerOptions {
  const slots = config.values.WORKER_BATCH_SLOTS;
  return { ...taskWorkerOptions(config, environment), maxConcurrentWorkflowTaskExecutions: slots, maxConcurrentLocalActivityExecutions: slots };
}

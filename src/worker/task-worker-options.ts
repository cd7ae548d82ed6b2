import type { WorkerOptions } from '@temporalio/worker';
import type { AdjustableSlots } from './adjustable-slots';
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

/**
 * The task worker's options while at most one organisation works: WORKER_SLOTS_ALONE_FACTOR times
 * its workflow-task and local-activity slots (slots-when-alone.ts). The bench's like-for-like raw
 * worker, which serves one organisation's work, runs with these.
 */
export function loneOrganisationWorkerOptions(config: AppConfig, environment: KeyEnvironment): TaskWorkerOptions {
  const options = taskWorkerOptions(config, environment);
  const slots = (options.maxConcurrentWorkflowTaskExecutions ?? 0) * config.values.WORKER_SLOTS_ALONE_FACTOR;
  return { ...options, maxConcurrentWorkflowTaskExecutions: slots, maxConcurrentLocalActivityExecutions: slots };
}

/** The worker of an environment's batch queue: the task worker's codec and activity slots, and WORKER_BATCH_SLOTS for workflow tasks and local activities. */
export function batchWorkerOptions(config: AppConfig, environment: KeyEnvironment): TaskWorkerOptions {
  const slots = config.values.WORKER_BATCH_SLOTS;
  return { ...taskWorkerOptions(config, environment), maxConcurrentWorkflowTaskExecutions: slots, maxConcurrentLocalActivityExecutions: slots };
}

/**
 * The task worker's options with its workflow-task slots taken from `slots`, which grow to `most`
 * while an organisation works alone (slots-when-alone.ts), instead of a fixed number; its local
 * activities get `most` slots, since each task runs one.
 */
export function withAdjustableSlots(options: TaskWorkerOptions, slots: AdjustableSlots, most: number): Omit<TaskWorkerOptions, 'maxConcurrentWorkflowTaskExecutions' | 'maxConcurrentActivityTaskExecutions' | 'maxConcurrentLocalActivityExecutions'> & Pick<WorkerOptions, 'tuner'> {
  const { maxConcurrentWorkflowTaskExecutions: _fixed, maxConcurrentActivityTaskExecutions: activities = 100, maxConcurrentLocalActivityExecutions: _local, ...rest } = options;
  return {
    ...rest,
    tuner: {
      workflowTaskSlotSupplier: slots,
      activityTaskSlotSupplier: { type: 'fixed-size', numSlots: activities },
      localActivityTaskSlotSupplier: { type: 'fixed-size', numSlots: most },
      // The SDK's default; Assay serves no Nexus operations.
      nexusTaskSlotSupplier: { type: 'fixed-size', numSlots: 100 },
    },
  };
}

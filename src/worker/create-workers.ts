import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Logger } from 'pino';
import { createActivities } from '../../activities';
import { createSummarizationProvider } from '../../activities/summarize/create-provider';
import type { AppConfig } from '../common/config/app-config';
import { KEY_ENVIRONMENTS, type KeyEnvironment } from '../common/keys/api-key';
import { assayDataConverter } from '../common/temporal/data-converter';
import type { Tracing } from '../common/tracing/start-tracing';
import { workerTracingOptions } from './worker-tracing';
import { encryptionRequiredInterceptors } from './encryption-required';
import { ensureOperatorCloseSweep } from './operator-close-sweep-schedule';
import { modelWorkerOptions } from './model-workers';
import { batchWorkerOptions, taskWorkerOptions, type TaskWorkerOptions } from './task-worker-options';
import { batchTaskQueue } from '../contract';
import { batchActivityDependencies, usageActivityDependencies, webhookActivityDependencies } from './activity-dependencies';

export type WorkflowSource = Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'>;

/**
 * Two workers per environment namespace it serves (WORKER_ENVIRONMENTS), on that environment's
 * connection, sharing the activities and the workflow code: one on the task queue, one on the batch
 * queue with few slots (WORKER_BATCH_SLOTS); and beside them one per remote model
 * on the model's own task queue; each served namespace's operator-close sweep is scheduled as the
 * workers start.
 * Each worker has slots of its own (WORKER_SLOTS_*, WORKER_ACTIVITY_SLOTS_*), so a sandbox flood
 * fills only the sandbox's; the process's CPU they share (docs/operations.md).
 */
export async function createWorkers(
  config: AppConfig,
  connections: Record<KeyEnvironment, NativeConnection>,
  workflows: WorkflowSource,
  logger?: Logger,
  tracing?: Tracing,
): Promise<Worker[]> {
  const activities = createActivities({
    summarizer: createSummarizationProvider(config),
    webhooks: await webhookActivityDependencies(config),
    usage: await usageActivityDependencies(config),
    batches: await batchActivityDependencies(config),
  });
  const namespaces: Record<KeyEnvironment, string> = { test: config.values.TEMPORAL_NAMESPACE_SANDBOX, live: config.values.TEMPORAL_NAMESPACE_PRODUCTION };
  const served = KEY_ENVIRONMENTS.filter((environment) => config.values.WORKER_ENVIRONMENTS.includes(environment));
  await Promise.all(served.map((environment) => ensureOperatorCloseSweep(connections[environment], namespaces[environment], config)));
  // Tracing's activity interceptors when it is on, then the refusal of production without keys.
  const tracingAndRefusal = (environment: KeyEnvironment): Pick<WorkerOptions, 'sinks' | 'interceptors'> => {
    const traced = workerTracingOptions(tracing);
    return { ...traced, interceptors: { activity: [...(traced.interceptors?.activity ?? []), ...encryptionRequiredInterceptors(config, environment)] } };
  };
  const models = await modelWorkerOptions(config);
  const modelWorkers = served.flatMap((environment) =>
    models.map((options) =>
      Worker.create({
        ...options,
        connection: connections[environment],
        namespace: namespaces[environment],
        dataConverter: assayDataConverter(config),
        shutdownGraceTime: config.values.WORKER_SHUTDOWN_GRACE_MS,
        ...tracingAndRefusal(environment),
      }).then((worker) => {
        logger?.info({ namespace: namespaces[environment], taskQueue: options.taskQueue, slots: options.maxConcurrentActivityTaskExecutions }, 'model queue ready');
        return worker;
      }),
    ),
  );
  const taskQueue = config.values.TEMPORAL_TASK_QUEUE;
  const batchQueue = batchTaskQueue(taskQueue);
  const taskWorkers = served.map(async (environment) => {
    const createWorker = (queue: string, options: TaskWorkerOptions) =>
      Worker.create({
        connection: connections[environment],
        namespace: namespaces[environment],
        taskQueue: queue,
        activities,
        ...workflows,
        ...options,
        shutdownGraceTime: config.values.WORKER_SHUTDOWN_GRACE_MS,
        ...tracingAndRefusal(environment),
      });
    const options = taskWorkerOptions(config, environment);
    const batchOptions = batchWorkerOptions(config, environment);
    const workers = await Promise.all([createWorker(taskQueue, options), createWorker(batchQueue, batchOptions)]);
    // One line per environment, once both of its queues are served.
    logger?.info(
      {
        namespace: namespaces[environment],
        taskQueue,
        slots: options.maxConcurrentWorkflowTaskExecutions,
        activitySlots: options.maxConcurrentActivityTaskExecutions,
        batchQueue,
        batchSlots: batchOptions.maxConcurrentWorkflowTaskExecutions,
        cachedWorkflows: options.maxCachedWorkflows,
      },
      'worker ready',
    );
    return workers;
  });
  const [perEnvironment, forModels] = await Promise.all([Promise.all(taskWorkers), Promise.all(modelWorkers)]);
  return [...perEnvironment.flat(), ...forModels];
}

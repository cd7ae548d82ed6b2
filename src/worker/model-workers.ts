import type { WorkerOptions } from '@temporalio/worker';
import { createModelActivities } from '../../activities/summarize/model-activities';
import { ProviderSlots } from '../../activities/summarize/provider-slots';
import type { AppConfig } from '../common/config/app-config';
import { modelTaskQueue } from '../contract';
import { environmentOfNamespace, workerStorage } from './activity-dependencies';

export type ModelWorkerOptions = Pick<WorkerOptions, 'taskQueue' | 'activities' | 'maxConcurrentActivityTaskExecutions'>;

/**
 * One activity-only worker per remote model, on the model's task queue: its calls wait there in
 * fair order instead of occupying the task queue's activity slots. A worker takes at most the
 * model's concurrency at once, and every call passes the slots in the shared database, so N
 * workers together keep to it too.
 */
export async function modelWorkerOptions(config: AppConfig): Promise<ModelWorkerOptions[]> {
  const remote = config.models.remoteModels;
  if (remote.length === 0) return [];
  const slots = new ProviderSlots((await workerStorage(config)).providerSlots);
  const activities = createModelActivities({ models: config.models, slots, environmentOf: environmentOfNamespace(config) });
  return remote.map((model) => ({
    taskQueue: modelTaskQueue(config.values.TEMPORAL_TASK_QUEUE, model.name),
    activities,
    maxConcurrentActivityTaskExecutions: model.concurrency,
  }));
}

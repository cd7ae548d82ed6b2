import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Logger } from 'pino';
import { createActivities } from '../../activities';
import { createSummarizationProvider } from '../../activities/summarize/create-provider';
import type { AppConfig } from '../common/config/app-config';
import { ensureOperatorCloseSweep } from './operator-close-sweep-schedule';
import { webhookActivityDependencies } from './webhook-dependencies';

export type WorkflowSource = Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'>;

/**
 * One worker per environment namespace, sharing a connection, the activities and the workflow
 * code; each namespace's operator-close sweep is scheduled as the workers start.
 */
export async function createWorkers(
  config: AppConfig,
  connection: NativeConnection,
  workflows: WorkflowSource,
  logger?: Logger,
): Promise<Worker[]> {
  const activities = createActivities({ summarizer: createSummarizationProvider(config), webhooks: await webhookActivityDependencies(config) });
  const namespaces = [config.values.TEMPORAL_NAMESPACE_SANDBOX, config.values.TEMPORAL_NAMESPACE_PRODUCTION];
  await Promise.all(namespaces.map((namespace) => ensureOperatorCloseSweep(connection, namespace, config)));
  return Promise.all(
    namespaces.map((namespace) =>
      Worker.create({
        connection,
        namespace,
        taskQueue: config.values.TEMPORAL_TASK_QUEUE,
        activities,
        ...workflows,
        shutdownGraceTime: config.values.WORKER_SHUTDOWN_GRACE_MS,
      }).then((worker) => {
        logger?.info({ namespace, taskQueue: config.values.TEMPORAL_TASK_QUEUE }, 'worker ready');
        return worker;
      }),
    ),
  );
}

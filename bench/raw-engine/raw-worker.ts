import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { ExtractiveProvider } from '../../activities/summarize/extractive-provider';
import { createSummarizeActivities } from '../../activities/summarize/summarize.activity';
import { runMain } from '../../src/common/run-main';
import { bundlerLogger } from '../../src/worker/bundler-logger';
import { RAW_WORKER_READY } from './raw-worker-ready';

/**
 * The raw engine's worker: the one-activity workflow and the same summarize activity, with the
 * SDK's default options, on a task queue of its own. Prints RAW_WORKER_READY once it polls; the
 * SDK's own signal handlers stop it on SIGTERM.
 */
runMain('bench', async () => {
  const { RAW_TEMPORAL_ADDRESS: address, RAW_NAMESPACE: namespace, RAW_TASK_QUEUE: taskQueue } = process.env;
  if (!address || !namespace || !taskQueue) throw new Error('RAW_TEMPORAL_ADDRESS, RAW_NAMESPACE and RAW_TASK_QUEUE are required');
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    workflowBundle: await bundleWorkflowCode({ workflowsPath: require.resolve('./one-activity.workflow'), logger: bundlerLogger }),
    activities: createSummarizeActivities(new ExtractiveProvider()),
  });
  const running = worker.run();
  process.stdout.write(`${RAW_WORKER_READY}\n`);
  await running;
  await connection.close();
});

import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { ExtractiveProvider } from '../../activities/summarize/extractive-provider';
import { createSummarizeActivities } from '../../activities/summarize/summarize.activity';
import { AppConfig } from '../../src/common/config/app-config';
import { KEY_ENVIRONMENTS, type KeyEnvironment } from '../../src/common/keys/api-key';
import { runMain } from '../../src/common/run-main';
import { temporalConnectionFromEnv } from '../../src/common/temporal/connection-options';
import { bundlerLogger } from '../../src/worker/bundler-logger';
import { taskWorkerOptions } from '../../src/worker/task-worker-options';
import { RAW_WORKER_READY } from './raw-worker-ready';

/**
 * The raw engine's worker: the one-activity workflow and the same summarize activity, with the
 * SDK's default options, on a task queue of its own. With RAW_LIKE_FOR_LIKE=1 it runs like for
 * like instead: the worker slots and payload codec Assay's worker for that environment has, read
 * from this process's environment (Assay's worker's) as Assay's worker reads them, and its workflow
 * module preloaded as Assay's are (src/worker/workflow-bundle.ts). It connects as
 * Assay's worker does (TEMPORAL_* and the Temporal config file, TLS included) for the key
 * environment RAW_KEY_ENVIRONMENT. Prints RAW_WORKER_READY once it polls; the SDK's own signal
 * handlers stop it on SIGTERM.
 */
runMain('bench', async () => {
  const { RAW_KEY_ENVIRONMENT, RAW_NAMESPACE: namespace, RAW_TASK_QUEUE: taskQueue, RAW_LIKE_FOR_LIKE } = process.env;
  const environment = KEY_ENVIRONMENTS.find((name): name is KeyEnvironment => name === RAW_KEY_ENVIRONMENT);
  if (!environment || !namespace || !taskQueue) throw new Error('RAW_KEY_ENVIRONMENT (test or live), RAW_NAMESPACE and RAW_TASK_QUEUE are required');
  const settings = temporalConnectionFromEnv(process.env, environment);
  if (!settings.ok) throw new Error(`Temporal connection settings:\n  ${settings.problems.join('\n  ')}`);
  const likeForLike = RAW_LIKE_FOR_LIKE === '1';
  const workflowsPath = require.resolve('./one-activity.workflow');
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await NativeConnection.connect(settings.options);
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    workflowBundle: await bundleWorkflowCode({ workflowsPath, preloadModules: likeForLike ? [workflowsPath] : [], logger: bundlerLogger }),
    activities: createSummarizeActivities(new ExtractiveProvider()),
    ...(likeForLike ? taskWorkerOptions(new AppConfig(process.env), environment) : {}),
  });
  const running = worker.run();
  process.stdout.write(`${RAW_WORKER_READY}\n`);
  await running;
  await connection.close();
});

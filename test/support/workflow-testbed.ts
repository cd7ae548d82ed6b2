import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkerOptions, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { ConfigValues } from '../../src/common/config/app-config';
import type { DevServer } from '../../src/embedded/temporal-dev-server';
import { bundlerLogger } from '../../src/worker/bundler-logger';
import { WORKFLOW_BUNDLE_OPTIONS } from '../../src/worker/workflow-bundle';
import { installWorkerRuntime } from '../../src/worker/install-runtime';
import { SANDBOX_NAMESPACE, startTestTemporal } from './test-temporal';

/**
 * What a workflow test needs to run the workflows on a real server with workers of its own
 * making: the dev server, a client of the sandbox namespace, and the workflow bundle, built once
 * per file because bundling takes seconds.
 */
export interface WorkflowTestbed {
  server: DevServer;
  client: Client;
  workflowBundle: WorkflowBundleWithSourceMap;
  /** A worker of the sandbox namespace on this server, running the bundle unless `options` give another; `options` name its task queue, activities and the rest. */
  createWorker(options: Omit<WorkerOptions, 'connection' | 'namespace'>): Promise<Worker>;
  stop(): Promise<void>;
}

/** `sdkLogLevel`: how much the Temporal SDK's own runtime logs. */
export async function startWorkflowTestbed(sdkLogLevel: ConfigValues['LOG_LEVEL']): Promise<WorkflowTestbed> {
  installWorkerRuntime(sdkLogLevel);
  const server = await startTestTemporal();
  let connection: Connection | undefined;
  let nativeConnection: NativeConnection | undefined;
  const stop = async () => {
    await connection?.close();
    await nativeConnection?.close();
    await server.stop();
  };
  try {
    connection = await Connection.connect({ address: server.address });
    nativeConnection = await NativeConnection.connect({ address: server.address });
    const workflowBundle = await bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: bundlerLogger });
    const workerConnection = nativeConnection;
    return {
      server,
      client: new Client({ connection, namespace: SANDBOX_NAMESPACE }),
      workflowBundle,
      createWorker: (options) => Worker.create({ workflowBundle, ...options, connection: workerConnection, namespace: SANDBOX_NAMESPACE }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { AppConfig } from '../common/config/app-config';
import { createLogger } from '../common/logging/create-logger';
import { describeTemporalConnection } from '../common/temporal/connection-options';
import { createWorkers } from './create-workers';
import { installWorkerRuntime } from './install-runtime';
import { prebuiltWorkflowBundle } from './workflow-bundle';

/** Owns the worker process's Temporal workers: run until shutdown, then let in-flight work finish or hand it back. */
@Injectable()
export class WorkerRunner implements OnApplicationShutdown {
  private workers: Worker[] = [];
  private running?: Promise<unknown>;
  private connection?: NativeConnection;

  constructor(@Inject(AppConfig) private readonly config: AppConfig) {}

  async run(): Promise<void> {
    const logger = createLogger(this.config.values.LOG_LEVEL, 'assay-worker');
    installWorkerRuntime(this.config.values.LOG_LEVEL, { metricsBindAddress: metricsBindAddress(this.config), logger });
    this.connection = await NativeConnection.connect(this.config.temporalConnection);
    logger.info({ temporal: describeTemporalConnection(this.config.temporalConnection) }, 'connected to Temporal');
    this.workers = await createWorkers(this.config, this.connection, prebuiltWorkflowBundle(), logger);
    this.running = Promise.all(this.workers.map((worker) => worker.run()));
    await this.running;
  }

  async onApplicationShutdown(): Promise<void> {
    for (const worker of this.workers) {
      if (worker.getState() === 'RUNNING') worker.shutdown();
    }
    await this.running;
    await this.connection?.close();
  }
}

/** Where the worker serves its metrics, or undefined when WORKER_METRICS_PORT is 0. */
function metricsBindAddress(config: AppConfig): string | undefined {
  const { WORKER_METRICS_HOST: host, WORKER_METRICS_PORT: port } = config.values;
  return port === 0 ? undefined : `${host}:${port}`;
}

import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { AppConfig } from '../common/config/app-config';
import { createLogger } from '../common/logging/create-logger';
import type { KeyEnvironment } from '../common/keys/api-key';
import { describeTemporalConnections } from '../common/temporal/connection-options';
import { distinct, perEnvironment } from '../common/temporal/per-environment';
import { startTracing, type Tracing } from '../common/tracing/start-tracing';
import { createWorkers } from './create-workers';
import { installWorkerRuntime } from './install-runtime';
import { prebuiltWorkflowBundle } from './workflow-bundle';

/** Owns the worker process's Temporal workers: run until shutdown, then let in-flight work finish or hand it back. */
@Injectable()
export class WorkerRunner implements OnApplicationShutdown {
  private workers: Worker[] = [];
  private running?: Promise<unknown>;
  private connections?: Record<KeyEnvironment, NativeConnection>;
  private tracing?: Tracing;

  constructor(@Inject(AppConfig) private readonly config: AppConfig) {}

  async run(): Promise<void> {
    const logger = createLogger(this.config.values.LOG_LEVEL, 'worker');
    this.tracing = this.config.tracing && startTracing('assay-worker', this.config.tracing);
    installWorkerRuntime(this.config.values.LOG_LEVEL, { metricsBindAddress: metricsBindAddress(this.config), logger });
    const connecting = perEnvironment(this.config.temporalConnections, (options) => NativeConnection.connect(options));
    this.connections = { test: await connecting.test, live: await connecting.live };
    logger.info({ temporal: describeTemporalConnections(this.config.temporalConnections) }, 'connected to Temporal');
    this.workers = await createWorkers(this.config, this.connections, prebuiltWorkflowBundle(), logger, this.tracing);
    this.running = Promise.all(this.workers.map((worker) => worker.run()));
    await this.running;
  }

  async onApplicationShutdown(): Promise<void> {
    for (const worker of this.workers) {
      if (worker.getState() === 'RUNNING') worker.shutdown();
    }
    await this.running;
    if (this.connections) await Promise.all(distinct(this.connections).map((connection) => connection.close()));
    await this.tracing?.shutdown();
  }
}

/** Where the worker serves its metrics, or undefined when WORKER_METRICS_PORT is 0. */
function metricsBindAddress(config: AppConfig): string | undefined {
  const { WORKER_METRICS_HOST: host, WORKER_METRICS_PORT: port } = config.values;
  return port === 0 ? undefined : `${host}:${port}`;
}

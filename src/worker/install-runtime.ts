import { Runtime, makeTelemetryFilterString, type LogLevel, type RuntimeOptions } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { ConfigValues } from '../common/config/app-config';
import { createLogger } from '../common/logging/create-logger';
import { sdkLogger } from './sdk-logger';

const SDK_LEVELS: Record<ConfigValues['LOG_LEVEL'], LogLevel> = {
  trace: 'TRACE',
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARN',
  error: 'ERROR',
  fatal: 'ERROR',
  silent: 'ERROR',
};

export interface WorkerRuntimeOptions {
  /** host:port where the SDK serves Prometheus metrics at /metrics; omitted = no metrics. */
  metricsBindAddress?: string;
  /** The worker's logger, which the SDK writes through too (default: a new one at `level`). */
  logger?: Logger;
}

let installed = false;

/**
 * The SDK's runtime is process-wide and can be installed once, before the first worker or
 * connection. Metrics are an aid, not the job: when the endpoint cannot bind, the worker runs
 * without it and says so, rather than refusing to process tasks.
 */
export function installWorkerRuntime(level: ConfigValues['LOG_LEVEL'], options: WorkerRuntimeOptions = {}): void {
  if (installed) return;
  const logger = options.logger ?? createLogger(level, 'worker');
  // Core's own lines (polling, nondeterminism, connection trouble) come through the same logger, not straight to the console.
  const logging = { filter: makeTelemetryFilterString({ core: SDK_LEVELS[level] }), forward: {} };
  const base: RuntimeOptions = { logger: sdkLogger(logger), telemetryOptions: { logging } };
  if (options.metricsBindAddress) {
    try {
      Runtime.install({ ...base, telemetryOptions: { logging, metrics: prometheusMetrics(options.metricsBindAddress) } });
      installed = true;
      logger.info({ metrics: `http://${options.metricsBindAddress}/metrics` }, 'worker metrics served');
      return;
    } catch (error) {
      logger.warn({ err: error, bindAddress: options.metricsBindAddress }, 'worker metrics endpoint could not start; running without it');
    }
  }
  Runtime.install(base);
  installed = true;
}

// Prometheus conventions: counters end in _total, durations are in seconds.
function prometheusMetrics(bindAddress: string) {
  return { prometheus: { bindAddress, countersTotalSuffix: true, useSecondsForDurations: true } };
}

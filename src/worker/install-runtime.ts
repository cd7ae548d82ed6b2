import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { ConfigValues } from '../config/app-config';

const SDK_LEVELS: Record<ConfigValues['LOG_LEVEL'], LogLevel> = {
  trace: 'TRACE',
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARN',
  error: 'ERROR',
  fatal: 'ERROR',
  silent: 'ERROR',
};

let installed = false;

/** The SDK's runtime is process-wide and can be installed once, before the first worker or connection. */
export function installWorkerRuntime(level: ConfigValues['LOG_LEVEL']): void {
  if (installed) return;
  Runtime.install({ logger: new DefaultLogger(SDK_LEVELS[level]) });
  installed = true;
}

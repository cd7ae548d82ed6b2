import { configSchema } from '../../src/common/config/app-config';
import { remoteProviderEnv } from '../../test/support/remote-provider-env';
import { UNLIMITED_CREATES } from '../../bench/unlimited-creates';

export interface ServiceEnvOptions {
  port: number;
  temporalAddress: string;
  dataDir: string;
  taskQueue: string;
  logLevel: 'info' | 'warn';
  /** An OpenAI-compatible endpoint; omitted = the built-in extractive summariser. */
  providerUrl?: string;
  /** Settings beyond these, applied last. */
  extra?: NodeJS.ProcessEnv;
}

/**
 * The environment of an API or worker of the stack. Assay's own variables are dropped from the
 * inherited environment first, so a developer's shell (a DATABASE_URL, a PORT) cannot leak in.
 */
export function serviceEnv(options: ServiceEnvOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(configSchema.shape)) delete env[name];
  return {
    ...env,
    PORT: String(options.port),
    HOST: '127.0.0.1',
    TEMPORAL_ADDRESS: options.temporalAddress,
    DATA_DIR: options.dataDir,
    TEMPORAL_TASK_QUEUE: options.taskQueue,
    LOG_LEVEL: options.logLevel,
    ...UNLIMITED_CREATES,
    // Off for the same reason: the suite kills workers and Temporal under load to show that nothing
    // accepted is lost, and the backlog a kill leaves would have admission refuse its next creates
    // (admission has its own test, test/e2e/admission.test.ts).
    ADMISSION_MAX_QUEUE_SECONDS: '0',
    // Off: a fixed metrics port would collide between a stack's workers, and with `npm start`.
    WORKER_METRICS_PORT: '0',
    ...(options.providerUrl ? remoteProviderEnv(options.providerUrl) : {}),
    ...options.extra,
  };
}

import { Client, Connection } from '@temporalio/client';
import { AssessmentReviewClient } from './assessment-review-client';
import { AppConfig } from '../../common/config/app-config';
import { assayDataConverter } from '../../common/temporal/data-converter';
import { describeTemporalConnection } from '../../common/temporal/connection-options';
import type { KeyEnvironment } from '../../common/keys/api-key';
import type { CommandEnd, TextOutput } from '../command-runner';
import { TemporalUnreachableError } from './review-errors';

/** How long claim, complete and release wait for a worker to accept or refuse them. */
export const DEFAULT_UPDATE_TIMEOUT_MS = 30_000;

const CONNECT_TIMEOUT_MS = 5_000;

/** Everything the reviewer commands touch outside themselves, so tests can run them in-process. */
export interface ReviewCommandDeps extends CommandEnd {
  env: NodeJS.ProcessEnv;
  stdout: TextOutput;
  updateTimeoutMs: number;
}

export function nodeReviewCommandDeps(): ReviewCommandDeps {
  return {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    exit: (code) => process.exit(code),
    updateTimeoutMs: DEFAULT_UPDATE_TIMEOUT_MS,
  };
}

/**
 * Runs `use` with a review client on the environment's namespace (the connection and namespace
 * settings come from the same configuration as the service) and closes the connection.
 */
export async function withReviewClient<T>(
  deps: ReviewCommandDeps,
  environment: KeyEnvironment,
  use: (client: AssessmentReviewClient) => Promise<T>,
): Promise<T> {
  const config = new AppConfig(deps.env);
  const values = config.values;
  const namespace = environment === 'live' ? values.TEMPORAL_NAMESPACE_PRODUCTION : values.TEMPORAL_NAMESPACE_SANDBOX;
  const options = config.temporalConnections[environment];
  const connection = await Connection.connect({ ...options, connectTimeout: CONNECT_TIMEOUT_MS }).catch((error: unknown) => {
    throw new TemporalUnreachableError(`Temporal is unreachable at ${describeTemporalConnection(options)}: ${error instanceof Error ? error.message : String(error)}`);
  });
  try {
    return await use(new AssessmentReviewClient(new Client({ connection, namespace, dataConverter: assayDataConverter(config) }), {
      updateTimeoutMs: deps.updateTimeoutMs,
      retentionMs: values.RETENTION_PERIOD,
    }));
  } finally {
    await connection.close();
  }
}

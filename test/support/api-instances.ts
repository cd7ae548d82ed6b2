import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiApp } from '../../src/api/create-api-app';
import { AssayHarness } from './assay-harness';
import { startTestPostgres, type TestPostgres } from './test-postgres';

export interface ApiInstances {
  /** The first instance's harness: the dev server, keys, the shared configuration. */
  harness: AssayHarness;
  /** Base URLs of the two instances. */
  urls: [string, string];
  stop(): Promise<void>;
}

/** Two API processes' worth of API (same configuration, no worker) on one real PostgreSQL, as a deployment runs them. */
export async function startTwoApiInstances(env: Record<string, string> = {}): Promise<ApiInstances> {
  const postgres: TestPostgres = await startTestPostgres();
  let harness: AssayHarness | undefined;
  let second: NestFastifyApplication | undefined;
  const stop = async () => {
    await second?.close();
    await harness?.stop();
    await postgres.stop();
  };
  try {
    harness = await AssayHarness.start({ worker: false, databaseUrl: await postgres.createDatabase(), env });
    second = await createApiApp(harness.config);
    await second.listen({ port: 0, host: '127.0.0.1' });
    return { harness, urls: [harness.baseUrl, await second.getUrl()], stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

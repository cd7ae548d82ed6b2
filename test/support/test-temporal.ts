import { resolveTemporalCli } from '../../src/embedded/temporal-cli';
import { startDevServer, type DevServer } from '../../src/embedded/temporal-dev-server';
import { freePort } from '../../src/net/free-port';

export const SANDBOX_NAMESPACE = 'assay-sandbox';
export const PRODUCTION_NAMESPACE = 'assay-production';

const START_ATTEMPTS = 3;

/**
 * A real, headless, in-memory Temporal dev server on a free port, with both environment
 * namespaces. Test files start servers in parallel, and the server also binds ports of its own
 * choosing, so a port can be taken between the check and the bind: a failed start is retried.
 */
export async function startTestTemporal(): Promise<DevServer> {
  const cliPath = resolveTemporalCli();
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDevServer({ cliPath, port: await freePort(), namespaces: [SANDBOX_NAMESPACE, PRODUCTION_NAMESPACE] });
    } catch (error) {
      if (attempt >= START_ATTEMPTS) throw error;
    }
  }
}

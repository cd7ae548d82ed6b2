import { resolveTemporalCli } from '../../src/embedded/temporal-cli';
import { startDevServer, type DevServer } from '../../src/embedded/temporal-dev-server';

export const SANDBOX_NAMESPACE = 'assay-sandbox';
export const PRODUCTION_NAMESPACE = 'assay-production';

/** A real, headless, in-memory Temporal dev server on a free port, with both environment namespaces. */
export function startTestTemporal(): Promise<DevServer> {
  return startDevServer({ cliPath: resolveTemporalCli(), namespaces: [SANDBOX_NAMESPACE, PRODUCTION_NAMESPACE] });
}

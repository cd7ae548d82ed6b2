import { resolveTemporalCli } from '../../src/embedded/temporal-cli';
import { startDevServer, type DevServer } from '../../src/embedded/temporal-dev-server';

export const SANDBOX_NAMESPACE = 'assay-sandbox';
export const PRODUCTION_NAMESPACE = 'assay-production';

/**
 * A real, in-memory Temporal dev server on a free port, with both environment namespaces; headless
 * unless `ui` asks for its Web UI (on another free port); dispatching fairly unless `fairness` is false.
 */
export function startTestTemporal({ ui = false, fairness = true } = {}): Promise<DevServer> {
  return startDevServer({ cliPath: resolveTemporalCli(), uiPort: ui ? 'free' : undefined, namespaces: [SANDBOX_NAMESPACE, PRODUCTION_NAMESPACE], fairness });
}

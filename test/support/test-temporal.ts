import { resolveTemporalCli } from '../../src/embedded/temporal-cli';
import { startDevServer, type DevServer } from '../../src/embedded/temporal-dev-server';

export const SANDBOX_NAMESPACE = 'assay-sandbox';
export const PRODUCTION_NAMESPACE = 'assay-production';

export interface TestTemporalOptions {
  /** Serve the Web UI too (on another free port); default headless. */
  ui?: boolean;
  /** Dispatch fairly (default) or, false, in arrival order. */
  fairness?: boolean;
  /** This front-end port instead of a free one: a server started again on it is the same address to the API and workers. */
  port?: number;
  /** Keep the server's state in this SQLite file instead of in memory, so a server started again on it has every workflow the last one had. */
  dbFile?: string;
}

/**
 * A real Temporal dev server with both environment namespaces: in memory on a free port unless
 * told otherwise, headless unless `ui` asks for its Web UI, dispatching fairly unless `fairness` is false.
 */
export function startTestTemporal({ ui = false, fairness = true, port, dbFile }: TestTemporalOptions = {}): Promise<DevServer> {
  return startDevServer({ cliPath: resolveTemporalCli(), uiPort: ui ? 'free' : undefined, namespaces: [SANDBOX_NAMESPACE, PRODUCTION_NAMESPACE], fairness, port, dbFile });
}

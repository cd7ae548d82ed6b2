import * as path from 'node:path';
import { z } from 'zod';
import { createLogger, terminalOr } from '../common/logging/create-logger';
import { runMain } from '../common/run-main';
import { describeChildExit } from '../embedded/child-services';
import { Cluster, CLUSTER_NAMESPACES } from './cluster';

// The launcher's own settings; the API instances and workers read theirs (src/common/config) from
// the same environment.
const launcherSettings = z.object({
  PORT: z.coerce.number().int().min(1).max(65534).default(3000),
  TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
  CODEC_PORT: z.coerce.number().int().min(1).max(65535).default(8234),
  CLUSTER_DATA_DIR: z.string().min(1).default('.data-cluster'),
});

// The launcher's lines always show (they are its banner and the news of its children), on stderr.
const launcherLog = createLogger('info', 'supervisor', terminalOr(2));

/** `npm run cluster`: the production topology on this machine (src/cluster/cluster.ts), stopped together by Ctrl-C. */
runMain('supervisor', async () => {
  const parsed = launcherSettings.safeParse(process.env);
  if (!parsed.success) throw new Error(`Invalid configuration:\n${parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n')}`);
  const settings = parsed.data;
  const dataDir = path.resolve(settings.CLUSTER_DATA_DIR);
  const started = Date.now();
  const cluster = await Cluster.start({ dataDir, apiPort: settings.PORT, uiPort: settings.TEMPORAL_UI_PORT, codecPort: settings.CODEC_PORT, log });

  let stopping = false;
  const stopAll = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping…');
    try {
      await cluster.stop();
      log('stopped');
    } catch (error) {
      log(`could not stop everything: ${(error as Error).message}`);
      exitCode = 1;
    }
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  for (const child of cluster.allProcesses) {
    void child.exited.then((exit) => {
      const report = describeChildExit(child.name, exit, stopping);
      if (report) log(stopping ? report : `${report} (its log: ${child.spec.logFile}); stopping everything`);
      if (!stopping) void stopAll(1);
    });
  }

  log(
    [
      `Assay cluster is running (started in ${((Date.now() - started) / 1000).toFixed(1)} s).`,
      `  API          ${cluster.apiUrls.join(' and ')}  (two instances, one key store)`,
      `  Temporal     ${cluster.temporalAddress}  (mTLS; namespaces ${CLUSTER_NAMESPACES.sandbox}, ${CLUSTER_NAMESPACES.production})`,
      `  Temporal UI  ${cluster.uiUrl}  (payloads in plaintext once this browser signed in at ${cluster.codecUrl}/)`,
      `  Codec        ${cluster.codecUrl}  (operator credential in ${cluster.codecCredentialFile}; docs/operations.md, "Reading payloads")`,
      `  Logs         ${path.join(dataDir, 'logs')}`,
      `  Environment  ${cluster.envFile}`,
      `               issue a key: set -a; . ${cluster.envFile}; set +a; npx assay keys issue --org <org> --env test`,
      '  Press Ctrl-C to stop everything; PostgreSQL keeps tasks and keys for the next start.',
    ].join('\n'),
  );
});

function log(message: string): void {
  launcherLog.info(message);
}

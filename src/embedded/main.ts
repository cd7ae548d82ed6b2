import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Connection } from '@temporalio/client';
import { API_NODE_FLAGS } from '../api/api-node-flags';
import { AppConfig } from '../common/config/app-config';
import { Storage } from '../common/storage/storage';
import { applyNamespaceRetention } from '../common/temporal/namespace-retention';
import { createLogger, terminalOr } from '../common/logging/create-logger';
import { runMain } from '../common/run-main';
import { runningChild, startChild } from './child-services';
import { ensureDemoKey } from './demo-key';
import { ensureLocalCodecCredential, ensureLocalEncryptionKey } from './local-encryption-key';
import { localTemporalEnv } from './local-temporal-env';
import { Supervisor } from './supervisor';
import { resolveTemporalCli } from './temporal-cli';
import { startDevServer } from './temporal-dev-server';

const CHILD_GRACE_MS = 15_000;

// The supervisor's own lines always show (they are the banner and the news of its children), on stderr as before.
const supervisorLog = createLogger('info', 'supervisor', terminalOr(2));

/**
 * `npm start`: Temporal dev server on SQLite, one worker, the API and the codec endpoint, each
 * restarted when it crashes (Supervisor), all stopped together by Ctrl-C.
 */
runMain('supervisor', async () => {
  const config = new AppConfig();
  const values = config.values;
  const temporalPort = portOf(values.TEMPORAL_ADDRESS);
  await assertPortFree(temporalPort, 'TEMPORAL_ADDRESS');
  await assertPortFree(values.PORT, 'PORT');
  await assertPortFree(values.TEMPORAL_UI_PORT, 'TEMPORAL_UI_PORT');
  await assertPortFree(values.CODEC_PORT, 'CODEC_PORT');
  // Owner only: it holds the key and webhook database and the demo key.
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });

  ensureLocalEncryptionKey(config);
  ensureLocalCodecCredential(config);
  // As the browser reaches it: on the same site as the UI the banner names (localhost), or the
  // browser keeps the codec's SameSite=Strict sign-in cookie from the UI's codec calls.
  const codecEndpoint = `http://${values.CODEC_HOST === '127.0.0.1' ? 'localhost' : values.CODEC_HOST}:${values.CODEC_PORT}/codec`;
  const namespaces = [values.TEMPORAL_NAMESPACE_SANDBOX, values.TEMPORAL_NAMESPACE_PRODUCTION];
  const cliPath = resolveTemporalCli(values.TEMPORAL_CLI_PATH);
  const temporalLog = path.join(config.dataDir, 'temporal.log');
  let stopping = false;
  const stopAll = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping…');
    await supervisor.stop();
    log('stopped');
    process.exit(exitCode);
  };
  const supervisor = new Supervisor(supervisorLog, (name) => {
    log(`${name} cannot be kept running, so nothing is: stopping everything (the lines above say why)`);
    void stopAll(1);
  });

  log(`starting Temporal dev server (${cliPath}), state in ${path.join(config.dataDir, 'temporal.sqlite')}`);
  // A restart comes back on the same port and SQLite file: the worker and the API reconnect by themselves, and no workflow is lost.
  const devServerOptions = {
    cliPath,
    port: temporalPort,
    uiPort: values.TEMPORAL_UI_PORT,
    namespaces,
    uiCodecEndpoint: codecEndpoint,
    dbFile: path.join(config.dataDir, 'temporal.sqlite'),
    logFile: temporalLog,
  };
  const server = await supervisor.supervise('Temporal dev server', () => startDevServer(devServerOptions), { outputIn: temporalLog });

  const retention = await withConnection(server.address, (connection) => applyNamespaceRetention(connection, namespaces, values.RETENTION_PERIOD));
  log(`finished work is kept for ${retention.map(({ namespace, retentionMs }) => `${msToDays(retentionMs)} days in ${namespace}`).join(', ')}`);
  const storage = await Storage.open(config);
  const keyFile = await ensureDemoKey(storage.keys, values.API_KEY_BRAND, config.dataDir);
  await storage.close();

  // Request logs would drown the banner in a terminal; LOG_LEVEL=info brings them back.
  const env = { LOG_LEVEL: 'warn', ...localTemporalEnv(process.env, server.address, config.dataDir), DATA_DIR: config.dataDir };
  const dist = path.resolve(__dirname, '..');
  // A restart reads the same configuration: the API and the codec come back on their ports.
  const nodeFlags: Record<string, readonly string[]> = { api: API_NODE_FLAGS };
  for (const name of ['worker', 'api', 'codec']) {
    await supervisor.supervise(name, async () => runningChild(startChild(name, path.join(dist, name, 'main.js'), env, nodeFlags[name]), CHILD_GRACE_MS));
  }
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  const baseUrl = `http://${values.HOST}:${values.PORT}`;
  await waitForHttp(`${baseUrl}/healthz`);
  log(
    [
      'Assay is running.',
      `  API          ${baseUrl}`,
      `  Temporal UI  http://localhost:${values.TEMPORAL_UI_PORT}  (namespaces ${values.TEMPORAL_NAMESPACE_SANDBOX}, ${values.TEMPORAL_NAMESPACE_PRODUCTION})`,
      `  Codec        ${codecEndpoint}  (sign in at ${codecEndpoint}/ with the operator credential in ${path.relative(process.cwd(), config.localCodecCredentialFile) || config.localCodecCredentialFile}; docs/operations.md, "Reading payloads")`,
      `  Sandbox key  in ${path.relative(process.cwd(), keyFile) || keyFile}  (organisation "demo"; read it with cat)`,
      '  A part that crashes is restarted. Press Ctrl-C to stop everything; tasks and keys are kept for the next start.',
    ].join('\n'),
  );
});

function log(message: string): void {
  supervisorLog.info(message);
}

async function withConnection<T>(address: string, use: (connection: Connection) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address });
  try {
    return await use(connection);
  } finally {
    await connection.close();
  }
}

function msToDays(ms: number): string {
  return String(Math.round((ms / 86_400_000) * 100) / 100);
}

function portOf(address: string): number {
  const port = Number(address.split(':').pop());
  if (!Number.isInteger(port)) throw new Error(`TEMPORAL_ADDRESS "${address}" has no port`);
  return port;
}

async function assertPortFree(port: number, setting: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', () => reject(new Error(`port ${port} is already in use (is Assay already running?); change ${setting}`)));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then((response) => response.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the API did not answer at ${url} within ${timeoutMs} ms`);
}

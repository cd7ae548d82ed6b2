import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../src/embedded/free-port';
import { resolveTemporalCli } from '../../src/embedded/temporal-cli';
import { BuiltService } from './built-service';

const READY = /Assay is running/;
const START_TIMEOUT_MS = 120_000;

/** `npm start` as a user runs it, on free ports and in a data directory of its own. */
export interface EmbeddedStack {
  service: BuiltService;
  dataDir: string;
  baseUrl: string;
  ports: { api: number; temporal: number; ui: number; codec: number };
  temporalAddress: string;
  /** The demo key the launcher wrote into the data directory. */
  apiKey: string;
}

/** Starts the embedded launcher with `env` beside the ports, the data directory and the Temporal CLI it needs. */
export async function startEmbeddedStack(dataDirPrefix: string, env: Record<string, string> = {}): Promise<EmbeddedStack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), dataDirPrefix));
  const ports = { api: await freePort(), temporal: await freePort(), ui: await freePort(), codec: await freePort() };
  const temporalAddress = `127.0.0.1:${ports.temporal}`;
  const service = await BuiltService.start(
    'embedded',
    {
      PORT: String(ports.api),
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_UI_PORT: String(ports.ui),
      CODEC_PORT: String(ports.codec),
      DATA_DIR: dataDir,
      TEMPORAL_CLI_PATH: resolveTemporalCli(),
      ...env,
    },
    READY,
    1,
    START_TIMEOUT_MS,
  );
  const apiKey = fs.readFileSync(path.join(dataDir, 'demo-api-key.txt'), 'utf8').trim();
  return { service, dataDir, baseUrl: `http://127.0.0.1:${ports.api}`, ports, temporalAddress, apiKey };
}

const STOP_TIMEOUT_MS = 30_000;

/** SIGTERM lets the launcher stop its dev server and children (a SIGKILL would orphan them); SIGKILL only if it hangs. */
export async function stopEmbeddedStack(stack: EmbeddedStack | undefined): Promise<void> {
  if (!stack) return;
  const { service } = stack;
  if (service.alive) {
    service.signal('SIGTERM');
    await Promise.race([service.exited, new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref())]);
  }
  await service.kill();
  fs.rmSync(stack.dataDir, { recursive: true, force: true });
}

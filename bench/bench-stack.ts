import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { API_NODE_FLAGS } from '../src/api/api-node-flags';
import { generateEncryptionKeyEntry } from '../src/common/crypto/encryption-keys';
import { AppConfig } from '../src/common/config/app-config';
import { stopChild, type ChildService } from '../src/embedded/child-services';
import { repoRoot } from '../src/common/repo-root';
import { resolveTemporalCli } from '../src/embedded/temporal-cli';
import { startDevServer, type DevServer } from '../src/embedded/temporal-dev-server';
import { parseApiKey, type KeyEnvironment } from '../src/common/keys/api-key';
import { temporalConnectionFromEnv, type TemporalConnectionOptions } from '../src/common/temporal/connection-options';
import { localTemporalEnv } from '../src/embedded/local-temporal-env';
import { KeyService } from '../src/common/keys/key-service';
import { ReviewerService } from '../src/cli/operator/reviewer-service';
import { Storage } from '../src/common/storage/storage';
import { sleep } from './clock';
import { freePort } from '../src/embedded/free-port';
import { canReadProcesses } from './process-usage';
import { countLoggedErrors, startLoggedChild } from './logged-child';
import { taskWorkerOptions, type TaskWorkerOptions } from '../src/worker/task-worker-options';
import { rawWorkerReady, rawWorkerRole, startRawWorker, type RawWorker, type RawWorkerRole, type RawWorkerTarget } from './raw-engine/start-raw-worker';
import { UNLIMITED_CREATES, UNLIMITED_KEY_CREATES } from './unlimited-creates';

const BENCH_ORGANIZATION = 'bench';
const CHILD_GRACE_MS = 15_000;

/** What a process does: which scenarios count its cost (the raw engine's not Assay's, Assay's not the raw worker's). */
export type ProcessRole = 'api' | 'worker' | 'temporal' | 'database' | RawWorkerRole | 'client';

/** A process of the stack whose CPU time and memory the bench can read; `client` is the bench itself, the load generator. */
export interface MeasuredProcess {
  /** Its role, or which of several of that role it is (api-1, history). */
  name: string;
  role: ProcessRole;
  pid: number;
  /** Measured with its child processes: PostgreSQL forks a backend per connection. */
  tree?: boolean;
}

// The bench runs the clients (Assay's SDK, the raw engine's Temporal client) on the same cores as the stack.
export const CLIENT: MeasuredProcess = { name: 'client', role: 'client', pid: process.pid };

/** Every process an Assay task goes through, the bench's client included. */
export const ASSAY_ROLES: ProcessRole[] = ['api', 'worker', 'temporal', 'database', 'client'];

/** Every process a raw workflow goes through: the raw worker of the given kind, Temporal and the bench's client. */
export function rawEngineRoles(worker: RawWorkerRole = 'raw-worker'): ProcessRole[] {
  return [worker, 'temporal', 'database', 'client'];
}

/** The processes of the given roles. */
export function processesOf(stack: BenchStack, roles: ProcessRole[]): MeasuredProcess[] {
  return stack.processes.filter((process) => roles.includes(process.role));
}

export interface BenchStack {
  /** What runs where, for the report. */
  description: string;
  /** How the raw engine's client reaches Temporal: as Assay's API does (TLS included). */
  connection: TemporalConnectionOptions;
  /** The namespace the API's key starts tasks in; the raw engine runs there too. */
  namespace: string;
  /** The raw engine's own task queue, polled only by its worker. */
  rawTaskQueue: string;
  /** The raw engine like for like, when the stack was asked for it (BenchStackOptions.rawLikeForLike). */
  rawLikeForLike?: RawLikeForLike;
  /** The first API instance. */
  baseUrl: string;
  /** Every API instance, which the throughput and latency scenarios spread tasks over. */
  baseUrls: string[];
  apiKey: string;
  /** The bench's own children, to measure; none for a deployment it did not start or where there is no /proc. */
  processes: MeasuredProcess[];
  /** A new key of `organization` in `environment`, when the bench owns the key store. */
  issueKey?: (organization: string, environment: KeyEnvironment) => Promise<string>;
  /** A new reviewer credential, when the bench owns the key store. */
  addReviewer?: (name: string, environment: KeyEnvironment) => Promise<string>;
  /** Stops (SIGSTOP) and resumes (SIGCONT) Assay's worker, when the bench owns it. */
  pauseWorker?: () => void;
  resumeWorker?: () => void;
  /** One line per child whose log holds errors, e.g. deadlines the API hit; read before stop(). */
  loggedErrors(): string[];
  stop(): Promise<void>;
}

/** A second raw worker, with the worker slots and payload codec of Assay's worker, on a task queue of its own. */
export interface RawLikeForLike {
  taskQueue: string;
  /** What it runs with; its client must encode with the same data converter to start workflows and read their results. */
  workerOptions: TaskWorkerOptions;
}

export interface BenchStackOptions {
  /** The dev server's fairness (`matching.enableFairness`); off dispatches in arrival order. */
  fairness?: boolean;
  /**
   * Keeps the per-organisation create limit as shipped (the noisy neighbour's flood stands for an
   * organisation with many keys); otherwise both create limits are lifted.
   */
  organisationLimit?: boolean;
  /** More environment for the API and the worker alike, e.g. ASSAY_MODELS (both must read the same). */
  childEnv?: NodeJS.ProcessEnv;
  /** Starts the raw engine like for like beside the raw engine as shipped (the engine-gap scenario). */
  rawLikeForLike?: boolean;
}

/**
 * The stack under test. By default the embedded default (Temporal dev server on a SQLite file
 * with the production pragmas, the built worker and API as child processes) on free ports and a
 * temporary DATA_DIR, so it never meets a running `npm start` or test. With TEMPORAL_ADDRESS it
 * starts only the worker and API against that server (on a task queue of its own); with
 * ASSAY_BASE_URL and ASSAY_API_KEY as well, it measures that deployment's API and workers. The
 * raw engine's workers are always the bench's own.
 */
export async function startBenchStack(
  env: NodeJS.ProcessEnv = process.env,
  { fairness = true, organisationLimit = false, childEnv: extraEnv = {}, rawLikeForLike = false }: BenchStackOptions = {},
): Promise<BenchStack> {
  const settings = new AppConfig(env).values;
  const encryption = benchEncryption(env);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-bench-'));
  const children: ChildService[] = [];
  const logOf = (name: string) => path.join(dataDir, `${name}.log`);
  let server: DevServer | undefined;
  const stop = async () => {
    await Promise.all(children.map((child) => stopChild(child, CHILD_GRACE_MS)));
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    if (!env.TEMPORAL_ADDRESS) {
      server = await startDevServer({
        cliPath: resolveTemporalCli(env.TEMPORAL_CLI_PATH),
        namespaces: [settings.TEMPORAL_NAMESPACE_SANDBOX, settings.TEMPORAL_NAMESPACE_PRODUCTION],
        dbFile: path.join(dataDir, 'temporal.sqlite'),
        logFile: path.join(dataDir, 'temporal.log'),
        fairness,
      });
    }
    // Beside its own dev server the stack connects in plaintext, whatever profile this shell has for other clusters.
    const temporalEnv = server ? localTemporalEnv(env, server.address, dataDir) : env;
    const suffix = randomBytes(4).toString('hex');
    const deployment = env.TEMPORAL_ADDRESS && env.ASSAY_BASE_URL && env.ASSAY_API_KEY ? { baseUrl: env.ASSAY_BASE_URL, apiKey: env.ASSAY_API_KEY } : undefined;
    const environment = deployment ? (parseApiKey(deployment.apiKey)?.environment ?? 'test') : 'test';
    const namespace = environment === 'live' ? settings.TEMPORAL_NAMESPACE_PRODUCTION : settings.TEMPORAL_NAMESPACE_SANDBOX;
    const rawTaskQueue = `assay-raw-${suffix}`;
    const connection = connectionOptions(temporalEnv, environment);
    const startReadyRawWorker = async (target: RawWorkerTarget) => {
      const rawWorker = startRawWorker(target, logOf(rawWorkerRole(target)));
      children.push(rawWorker);
      await rawWorkerReady(rawWorker);
      return rawWorker;
    };
    const rawTarget = { temporalEnv, environment, namespace };
    const rawWorker = await startReadyRawWorker({ ...rawTarget, taskQueue: rawTaskQueue });
    // Like for like, the raw worker and its client read the slots and payload keys from the environment Assay's worker has.
    const startLikeForLike = async (assayWorkerEnv: NodeJS.ProcessEnv) => {
      if (!rawLikeForLike) return undefined;
      const taskQueue = `assay-raw-like-for-like-${suffix}`;
      const worker = await startReadyRawWorker({ ...rawTarget, taskQueue, assayWorkerEnv });
      return { engine: { taskQueue, workerOptions: taskWorkerOptions(new AppConfig(assayWorkerEnv), environment) }, processes: [rawWorkerProcess(worker)] };
    };
    const loggedErrors = () => errorLines(children.map((child) => ({ name: child.name, logFile: logOf(child.name) })));
    const common = { connection, namespace, rawTaskQueue, loggedErrors, stop };
    if (deployment) {
      // The deployment's worker is not the bench's: its settings are taken to be the ones this shell has.
      const likeForLike = await startLikeForLike(env);
      return {
        ...common,
        ...deployment,
        rawLikeForLike: likeForLike?.engine,
        baseUrls: [deployment.baseUrl],
        description: `existing deployment: API ${deployment.baseUrl}, Temporal ${connection.address}`,
        processes: canReadProcesses() ? [rawWorkerProcess(rawWorker), ...(likeForLike?.processes ?? []), CLIENT] : [],
      };
    }

    const port = await freePort();
    const childEnv: NodeJS.ProcessEnv = {
      ...temporalEnv,
      ...(organisationLimit ? UNLIMITED_KEY_CREATES : UNLIMITED_CREATES),
      LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
      // On a shared server, another deployment's workers may poll the usual queue.
      TEMPORAL_TASK_QUEUE: server ? settings.TEMPORAL_TASK_QUEUE : `assay-bench-${suffix}`,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      // Metrics stay on, as in production, on a port no other Assay uses.
      WORKER_METRICS_PORT: String(await freePort()),
      // Payloads encrypted as `npm start` does (its key file); BENCH_ENCRYPTION=off measures without,
      // which production (the noisy neighbour's sandbox flood) is then told to accept.
      ...(encryption ? { PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('bench') } : { PAYLOAD_ENCRYPTION: 'off' }),
      ...extraEnv,
    };
    const childConfig = new AppConfig(childEnv);
    const apiKey = await issueKey(childConfig, BENCH_ORGANIZATION, 'test');
    const likeForLike = await startLikeForLike(childEnv);
    const dist = path.join(repoRoot(), 'dist', 'src');
    const worker = startLoggedChild('worker', path.join(dist, 'worker', 'main.js'), childEnv, logOf('worker'));
    const api = startLoggedChild('api', path.join(dist, 'api', 'main.js'), childEnv, logOf('api'), { nodeFlags: API_NODE_FLAGS });
    children.push(worker, api);
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForHealth(baseUrl, children);
    const processes: MeasuredProcess[] = [
      { name: 'api', role: 'api', pid: api.process.pid as number },
      { name: 'worker', role: 'worker', pid: worker.process.pid as number },
      rawWorkerProcess(rawWorker),
      ...(likeForLike?.processes ?? []),
      CLIENT,
    ];
    if (server) processes.push({ name: 'temporal', role: 'temporal', pid: server.process.pid as number });
    if (!canReadProcesses()) processes.length = 0;
    return {
      ...common,
      rawLikeForLike: likeForLike?.engine,
      description: `${
        server
          ? `embedded default: Temporal dev server on a SQLite file (the production pragmas, fairness ${fairness ? 'on' : 'off'}), worker and API as child processes`
          : `Temporal ${connection.address}; the bench's own worker and API on task queue ${childEnv.TEMPORAL_TASK_QUEUE}`
      }; payload encryption ${encryption ? 'on' : 'off (BENCH_ENCRYPTION=off)'}`,
      baseUrl,
      baseUrls: [baseUrl],
      apiKey,
      processes,
      issueKey: (organization, environment) => issueKey(childConfig, organization, environment),
      addReviewer: (name, environment) => addReviewer(childConfig, name, environment),
      pauseWorker: () => worker.process.kill('SIGSTOP'),
      resumeWorker: () => worker.process.kill('SIGCONT'),
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** One environment's Temporal connection settings, read as Assay's processes read them. */
export function connectionOptions(env: NodeJS.ProcessEnv, environment: KeyEnvironment): TemporalConnectionOptions {
  const settings = temporalConnectionFromEnv(env, environment);
  if (!settings.ok) throw new Error(`Temporal connection settings:\n  ${settings.problems.join('\n  ')}`);
  return settings.options;
}

export function rawWorkerProcess(rawWorker: RawWorker): MeasuredProcess {
  return { name: rawWorker.name, role: rawWorker.role, pid: rawWorker.process.pid as number };
}

/** One line per log that holds errors, e.g. deadlines the API hit. */
export function errorLines(logs: { name: string; logFile: string }[]): string[] {
  return logs.flatMap(({ name, logFile }) => {
    const { errors, commonest } = countLoggedErrors(logFile);
    return errors === 0 ? [] : [`${name}: ${errors} error lines in its log, most often "${commonest}"`];
  });
}

export function issueKey(config: AppConfig, organization: string, environment: KeyEnvironment): Promise<string> {
  return withStorage(config, async (storage) => (await new KeyService(storage.keys, config.values.API_KEY_BRAND, { actor: 'bench' }).issue(organization, environment)).key);
}

function addReviewer(config: AppConfig, name: string, environment: KeyEnvironment): Promise<string> {
  return withStorage(config, async (storage) => (await new ReviewerService(storage.reviewers, config.values.API_KEY_BRAND, { actor: 'bench' }).add(name, environment)).credential);
}

/** The stack's key store, opened for one operator action as the CLI would open it. */
async function withStorage<T>(config: AppConfig, use: (storage: Storage) => Promise<T>): Promise<T> {
  const storage = await Storage.open(config);
  try {
    return await use(storage);
  } finally {
    await storage.close();
  }
}

async function waitForHealth(baseUrl: string, children: ChildService[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const exited = children.find((child) => child.process.exitCode !== null);
    if (exited) throw new Error(`the ${exited.name} exited with code ${exited.process.exitCode} before the API was up`);
    if (await fetch(`${baseUrl}/healthz`).then((response) => response.ok, () => false)) return;
    await sleep(200);
  }
  throw new Error(`the API did not answer at ${baseUrl}/healthz within ${timeoutMs} ms`);
}

/** BENCH_ENCRYPTION: `on` (the default, as `npm start` runs) or `off`. */
function benchEncryption(env: NodeJS.ProcessEnv): boolean {
  const value = env.BENCH_ENCRYPTION ?? 'on';
  if (value !== 'on' && value !== 'off') throw new Error(`BENCH_ENCRYPTION must be on or off, got ${value}`);
  return value === 'on';
}

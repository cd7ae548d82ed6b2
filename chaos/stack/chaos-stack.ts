import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { resolveTemporalCli } from '../../src/embedded/temporal-cli';
import { startDevServer, type DevServer } from '../../src/embedded/temporal-dev-server';
import { builtEntrypoints, type BuiltEntrypoints } from './built-entrypoints';
import { freePort } from '../../src/embedded/free-port';
import { addSandboxReviewer, issueSandboxKey } from './issue-key';
import { ServiceProcess } from './service-process';
import { serviceEnv } from './service-env';
import { SlowProvider, type DelayRange } from './slow-provider';
import { SAMPLER_ENV } from './process-sample';

// Preloaded (node --require) into the API and workers of a sampled stack; built beside this file.
const PROCESS_SAMPLER = path.join(__dirname, 'process-sampler.js');

export const SANDBOX_NAMESPACE = 'assay-sandbox';
const NAMESPACES = [SANDBOX_NAMESPACE, 'assay-production'];
export const CHAOS_ORGANIZATION = 'chaos';
/** The reviewer whose credential the stack's reviewer CLI uses. */
export const CHAOS_REVIEWER = 'chaos-reviewer';

// The worker logs this once per namespace when its pollers are up (at LOG_LEVEL=info).
const WORKER_READY = /"msg":"worker ready"/;
const API_READY = /listening on http/;

export interface StandInModel {
  name: string;
  delay: DelayRange;
  /** Calls in flight at once over the stack's workers. */
  concurrency: number;
}

export interface ChaosStackOptions {
  /** Names the temp directory and the task queue. */
  label: string;
  /** Summaries come from a slow stand-in provider with this delay; omitted = the real extractive summariser. */
  providerDelay?: DelayRange;
  /** More models (ASSAY_MODELS) served by the same stand-in, each answering after its own delay; tasks name them in `model`. */
  providerModels?: StandInModel[];
  /** Settings the API and workers get beyond the stack's own. */
  env?: NodeJS.ProcessEnv;
  /** The API and workers append a sample of their memory, descriptors and event-loop delay to `samplesFile` this often (process-sampler.ts). */
  sampleIntervalMs?: number;
  /** Workers to start with the stack (default one, named "worker-1"). */
  workers?: string[];
}

/**
 * The whole service as `npm start` runs it, one process per part: a Temporal dev server on a
 * SQLite file, the API and one or more workers from dist/, on free ports in a temp directory.
 * Every part can be killed with SIGKILL and started again on the same port and the same files.
 */
export class ChaosStack {
  readonly workers = new Map<string, ServiceProcess>();
  api?: ServiceProcess;
  private temporal?: DevServer;
  private auditConnection?: Connection;
  apiKey = '';
  reviewerCredential = '';

  private constructor(
    readonly options: ChaosStackOptions,
    readonly dir: string,
    private readonly entrypoints: BuiltEntrypoints,
    private readonly apiPort: number,
    private readonly provider?: SlowProvider,
    private readonly providerUrl?: string,
  ) {}

  static async start(options: ChaosStackOptions): Promise<ChaosStack> {
    const entrypoints = builtEntrypoints();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `assay-chaos-${options.label}-`));
    const provider = options.providerDelay ? new SlowProvider(options.providerDelay, Object.fromEntries((options.providerModels ?? []).map((model) => [model.name, model.delay]))) : undefined;
    const providerUrl = await provider?.listen();
    const stack = new ChaosStack(options, dir, entrypoints, await freePort(), provider, providerUrl);
    try {
      await stack.startTemporal();
      stack.apiKey = await issueSandboxKey(entrypoints.cli, stack.env('warn'), CHAOS_ORGANIZATION);
      stack.reviewerCredential = await addSandboxReviewer(entrypoints.cli, stack.env('warn'), CHAOS_REVIEWER);
      await Promise.all([stack.startApi(), ...(options.workers ?? ['worker-1']).map((name) => stack.startWorker(name))]);
    } catch (error) {
      await stack.stop({ keepFiles: true });
      throw error;
    }
    return stack;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.apiPort}`;
  }

  /** A sandbox key of another organisation, issued as the stack's own was. */
  issueKey(organization: string): Promise<string> {
    return issueSandboxKey(this.entrypoints.cli, this.env('warn'), organization);
  }

  get temporalAddress(): string {
    if (!this.temporal) throw new Error('the Temporal server has not been started');
    return this.temporal.address;
  }

  get taskQueue(): string {
    return `chaos-${this.options.label}`;
  }

  get slowProvider(): SlowProvider | undefined {
    return this.provider;
  }

  /** The environment `assay` CLI commands of this stack run with: the reviewer's commands call its API with the reviewer's credential. */
  cliEnv(): NodeJS.ProcessEnv {
    return { ...this.env('warn'), ASSAY_BASE_URL: this.baseUrl, ASSAY_REVIEWER_CREDENTIAL: this.reviewerCredential };
  }

  /** Where the sampled processes write (see sampleIntervalMs). */
  get samplesFile(): string {
    return path.join(this.dir, 'process-samples.jsonl');
  }

  /** The process id of each running part (api, the workers by name, temporal), for samples read from outside. */
  processIds(): Map<string, number> {
    const ids = new Map<string, number>();
    if (this.api?.alive) ids.set('api', this.api.pid);
    for (const [name, worker] of this.workers) if (worker.alive) ids.set(name, worker.pid);
    const temporalPid = this.temporal?.process.pid;
    if (temporalPid !== undefined) ids.set('temporal', temporalPid);
    return ids;
  }

  get cliPath(): string {
    return this.entrypoints.cli;
  }

  /** The first start picks a free port; a restart takes the same one, where the API and workers reconnect. */
  async startTemporal(): Promise<void> {
    this.temporal = await startDevServer({
      cliPath: resolveTemporalCli(),
      port: this.temporal?.port,
      namespaces: NAMESPACES,
      dbFile: path.join(this.dir, 'temporal.sqlite'),
      logFile: path.join(this.dir, 'temporal.log'),
    });
  }

  async killTemporal(): Promise<void> {
    const server = this.temporal?.process;
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    process.kill(server.pid as number, 'SIGKILL');
    await exited;
  }

  async startApi(): Promise<void> {
    this.api = await ServiceProcess.start({
      name: 'api',
      script: this.entrypoints.api,
      env: { ...this.env('warn'), ...this.samplingEnv('api') },
      logFile: path.join(this.dir, 'api.log'),
      readyLine: API_READY,
    });
  }

  async killApi(): Promise<void> {
    await this.api?.kill9();
  }

  async startWorker(name: string): Promise<void> {
    const worker = await ServiceProcess.start({
      name,
      script: this.entrypoints.worker,
      env: { ...this.env('info'), ...this.samplingEnv(name) },
      logFile: path.join(this.dir, `${name}.log`),
      readyLine: WORKER_READY,
      readyLines: NAMESPACES.length,
    });
    this.workers.set(name, worker);
  }

  async killWorker(name: string): Promise<void> {
    await this.workers.get(name)?.kill9();
  }

  /** kill -9 of every process at once: API, workers and the Temporal server. */
  async killEverything(): Promise<void> {
    await Promise.all([this.killApi(), ...[...this.workers.keys()].map((name) => this.killWorker(name)), this.killTemporal()]);
  }

  /** A Temporal client on the sandbox namespace, for the evidence; it reconnects after a restart. */
  async auditClient(): Promise<Client> {
    this.auditConnection ??= await Connection.connect({ address: this.temporalAddress });
    return new Client({ connection: this.auditConnection, namespace: SANDBOX_NAMESPACE });
  }

  /** Stops everything; the directory (logs, SQLite files) is kept when asked, to read after a failure. */
  async stop(options: { keepFiles?: boolean } = {}): Promise<void> {
    await Promise.all([this.api?.stop(), ...[...this.workers.values()].map((worker) => worker.stop())]);
    await this.auditConnection?.close();
    await this.temporal?.stop();
    await this.provider?.close();
    if (!options.keepFiles) fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private samplingEnv(processName: string): NodeJS.ProcessEnv {
    const intervalMs = this.options.sampleIntervalMs;
    if (intervalMs === undefined) return {};
    return {
      NODE_OPTIONS: `--require ${JSON.stringify(PROCESS_SAMPLER)}`,
      [SAMPLER_ENV.file]: this.samplesFile,
      [SAMPLER_ENV.intervalMs]: String(intervalMs),
      [SAMPLER_ENV.processName]: processName,
    };
  }

  private env(logLevel: 'info' | 'warn'): NodeJS.ProcessEnv {
    return serviceEnv({
      port: this.apiPort,
      temporalAddress: this.temporalAddress,
      dataDir: this.dir,
      taskQueue: this.taskQueue,
      logLevel,
      providerUrl: this.providerUrl,
      extra: { ...this.modelsEnv(), ...this.options.env },
    });
  }

  private modelsEnv(): NodeJS.ProcessEnv {
    const models = this.options.providerModels ?? [];
    if (models.length === 0 || !this.providerUrl) return {};
    return { ASSAY_MODELS: JSON.stringify(models.map(({ name, concurrency }) => ({ name, model: name, base_url: this.providerUrl, concurrency }))) };
  }
}

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DestinationStream } from 'pino';
import { NativeConnection, bundleWorkflowCode, type Worker } from '@temporalio/worker';
import { createApiApp } from '../../src/api/create-api-app';
import { AppConfig } from '../../src/common/config/app-config';
import type { DevServer } from '../../src/embedded/temporal-dev-server';
import type { KeyEnvironment } from '../../src/common/keys/api-key';
import { KeyService, type RotatedKey } from '../../src/common/keys/key-service';
import { ReviewerService, type IssuedReviewer } from '../../src/cli/operator/reviewer-service';
import { Storage } from '../../src/common/storage/storage';
import { distinct, perEnvironment } from '../../src/common/temporal/per-environment';
import { bundlerLogger } from '../../src/worker/bundler-logger';
import { WORKFLOW_BUNDLE_OPTIONS } from '../../src/worker/workflow-bundle';
import { createWorkers, type WorkflowSource } from '../../src/worker/create-workers';
import { installWorkerRuntime } from '../../src/worker/install-runtime';
import { remoteProviderEnv } from './remote-provider-env';
import { PRODUCTION_NAMESPACE, SANDBOX_NAMESPACE, startTestTemporal } from './test-temporal';

export interface HarnessOptions {
  env?: Record<string, string>;
  /**
   * Start the worker with the harness (default true). `'later'`: not yet, but bundle its workflows
   * now, so the test that starts it spends none of its own time (on a loaded machine, many seconds) bundling.
   */
  worker?: boolean | 'later';
  /** Keep keys in this PostgreSQL database instead of the SQLite file in the data directory. */
  databaseUrl?: string;
  /** Use this dev server (stopped with the harness) instead of starting one, e.g. to put a proxy in front of it first. */
  temporal?: DevServer;
  /** Where the API's request logs go (default: nowhere, LOG_LEVEL is silent unless env says otherwise). */
  logDestination?: DestinationStream;
  /** Serve Temporal's Web UI too, at `temporal.uiPort` (default: headless). */
  temporalUi?: boolean;
  /** An OpenAI-compatible stand-in for the workers' summaries; the harness starts it first and closes it last. */
  provider?: { listen(): Promise<string>; close(): Promise<void> };
}

/**
 * The whole service for a test file: a real Temporal dev server, the real HTTP API on a free
 * port, real workers, and a key store in a fresh data directory.
 */
export class AssayHarness {
  baseUrl = '';
  private app?: NestFastifyApplication;
  private workers: Worker[] = [];
  private running?: Promise<unknown>;
  private connections?: Record<KeyEnvironment, NativeConnection>;
  private workflowSource?: WorkflowSource;
  private storage?: Promise<Storage>;
  private readonly otherApis: NestFastifyApplication[] = [];

  private constructor(
    readonly temporal: DevServer,
    readonly config: AppConfig,
    readonly dataDir: string,
    private readonly provider: HarnessOptions['provider'],
  ) {}

  static async start(options: HarnessOptions = {}): Promise<AssayHarness> {
    const providerEnv = options.provider ? remoteProviderEnv(await options.provider.listen()) : {};
    let temporal: DevServer;
    try {
      temporal = options.temporal ?? (await startTestTemporal({ ui: options.temporalUi }));
    } catch (error) {
      await options.provider?.close();
      throw error;
    }
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-test-'));
    const config = new AppConfig({
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE_SANDBOX: SANDBOX_NAMESPACE,
      TEMPORAL_NAMESPACE_PRODUCTION: PRODUCTION_NAMESPACE,
      TEMPORAL_TASK_QUEUE: `assay-test-${path.basename(dataDir)}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      KEY_CACHE_TTL_MS: '200',
      // Webhook tests receive on a loopback HTTP server.
      WEBHOOKS_ALLOW_INSECURE_SANDBOX: 'true',
      // Without keys (unless a test gives some) and read without a codec, the harness keeps
      // production in plaintext as an operator would: by consent. Tests of the refusal set `required`.
      PAYLOAD_ENCRYPTION: 'off',
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      ...providerEnv,
      ...options.env,
    });
    const harness = new AssayHarness(temporal, config, dataDir, options.provider);
    try {
      harness.app = await createApiApp(config, { logDestination: options.logDestination });
      await harness.app.listen({ port: 0, host: '127.0.0.1' });
      harness.baseUrl = await harness.app.getUrl();
      if (options.worker === 'later') await harness.bundleWorkflows();
      else if (options.worker !== false) await harness.startWorker();
    } catch (error) {
      // The test file's afterAll never sees a harness that failed to start: stop what did start.
      await harness.stop();
      throw error;
    }
    return harness;
  }

  async startWorker(): Promise<void> {
    installWorkerRuntime('error');
    if (!this.connections) {
      const connecting = perEnvironment(this.config.temporalConnections, (options) => NativeConnection.connect(options));
      this.connections = { test: await connecting.test, live: await connecting.live };
    }
    this.workers = await createWorkers(this.config, this.connections, await this.bundleWorkflows());
    this.running = Promise.all(this.workers.map((worker) => worker.run()));
  }

  private async bundleWorkflows(): Promise<WorkflowSource> {
    this.workflowSource ??= { workflowBundle: await bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: bundlerLogger }) };
    return this.workflowSource;
  }

  async stopWorker(): Promise<void> {
    this.workers.forEach((worker) => worker.shutdown());
    await this.running;
    this.workers = [];
  }

  /** One of the in-process API's providers (its TemporalClients, say), so a test can watch what the API asks of Temporal. */
  apiProvider<T>(token: abstract new (...args: never[]) => T): T {
    if (!this.app) throw new Error('the API is not running');
    return this.app.get(token);
  }

  /** What an API or worker started apart (from dist/, or the CLI) needs to share this harness's Temporal, namespaces, task queue, key store and encryption settings. */
  sharedEnv(): Record<string, string> {
    const values = this.config.values;
    return {
      TEMPORAL_ADDRESS: values.TEMPORAL_ADDRESS,
      TEMPORAL_NAMESPACE_SANDBOX: values.TEMPORAL_NAMESPACE_SANDBOX,
      TEMPORAL_NAMESPACE_PRODUCTION: values.TEMPORAL_NAMESPACE_PRODUCTION,
      TEMPORAL_TASK_QUEUE: values.TEMPORAL_TASK_QUEUE,
      DATA_DIR: this.dataDir,
      PAYLOAD_ENCRYPTION: values.PAYLOAD_ENCRYPTION,
      ...(values.PAYLOAD_ENCRYPTION_KEYS !== undefined ? { PAYLOAD_ENCRYPTION_KEYS: values.PAYLOAD_ENCRYPTION_KEYS } : {}),
    };
  }

  /**
   * Another API instance on this harness's Temporal, task queue and key store, its settings the
   * shared ones with `env` over them (an undefined value unsets one); stopped with the harness.
   * Answers its base URL.
   */
  async startApi(env: Record<string, string | undefined>): Promise<string> {
    const app = await createApiApp(new AppConfig({ ...this.sharedEnv(), LOG_LEVEL: 'silent', ...env }));
    this.otherApis.push(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app.getUrl();
  }

  async issueKey(org: string, env: KeyEnvironment): Promise<{ id: string; key: string }> {
    return (await this.keyService()).issue(org, env);
  }

  async revokeKey(id: string): Promise<void> {
    await (await this.keyService()).revoke(id);
  }

  async rotateKey(id: string, graceMs = 0): Promise<RotatedKey> {
    const rotated = await (await this.keyService()).rotate(id, { graceMs });
    if (!rotated) throw new Error(`no active key ${id} to rotate`);
    return rotated;
  }

  /** The operator's view of the key store the API uses, as the CLI would open it. */
  async keyService(): Promise<KeyService> {
    return new KeyService((await this.operatorStorage()).keys, this.config.values.API_KEY_BRAND, { actor: 'test-harness' });
  }

  /** A reviewer credential, as `assay reviewers add <name>` issues it. */
  async addReviewer(name: string, env: KeyEnvironment = 'test'): Promise<IssuedReviewer> {
    return (await this.reviewerService()).add(name, env);
  }

  async reviewerService(): Promise<ReviewerService> {
    return new ReviewerService((await this.operatorStorage()).reviewers, this.config.values.API_KEY_BRAND, { actor: 'test-harness' });
  }

  /** The database the API uses, opened beside it as the CLI opens it. */
  operatorStorage(): Promise<Storage> {
    this.storage ??= Storage.open(this.config);
    return this.storage;
  }

  async stop(): Promise<void> {
    if (this.workers.length > 0) await this.stopWorker();
    await Promise.all(this.otherApis.map((app) => app.close()));
    await this.app?.close();
    if (this.connections) await Promise.all(distinct(this.connections).map((connection) => connection.close()));
    await (await this.storage)?.close();
    await this.temporal.stop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
    await this.provider?.close();
  }
}

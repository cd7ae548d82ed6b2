import * as fs from 'node:fs';
import * as path from 'node:path';
import { Connection } from '@temporalio/client';
import { API_NODE_FLAGS } from '../api/api-node-flags';
import { RATE_LIMIT_POOL_SIZE } from '../api/platform/http/postgres-rate-limit-store';
import { AppConfig } from '../common/config/app-config';
import { STORAGE_POOL_SIZE } from '../common/storage/postgres-dialect';
import { repoRoot } from '../common/repo-root';
import { temporalConnectionFromEnv, type TemporalConnectionOptions } from '../common/temporal/connection-options';
import { freePort } from '../embedded/free-port';
import { ensureLocalCodecCredential } from '../embedded/local-encryption-key';
import { localTemporalEnv } from '../embedded/local-temporal-env';
import { makeCertificates, type Certificates } from './certificates';
import { ensureClusterEncryption } from './cluster-encryption';
import { startClusterPostgres, type ClusterPostgres } from './cluster-postgres';
import { ClusterProcess, countLogLines } from './cluster-process';
import { setUpNamespaces } from './namespaces';
import { acceptsConnections, answersOk, frontendServes } from './readiness';
import { TEMPORAL_DYNAMIC_CONFIG, METRICS_PORT_VARIABLE, TEMPORAL_POOL_SIZES, temporalServerConfig, type TemporalServicePorts } from './temporal-server-config';
import { provisionTemporalServer, type TemporalServerBuild } from './temporal-server-build';
import { setUpTemporalSchema } from './temporal-schema';
import { uiServerConfig } from './ui-server-config';
import { devServerEnvironment } from '../embedded/dev-server-environment';

export const CLUSTER_NAMESPACES = { sandbox: 'assay-sandbox', production: 'assay-production' };
/** Assay's processes: two API instances (on the API port and the next one) and two workers. */
export const API_INSTANCES = ['api-1', 'api-2'] as const;
export const WORKERS = ['worker-1', 'worker-2'] as const;
/** The Temporal server's processes; the frontend process runs the internal worker service too. */
export const TEMPORAL_SERVICES = ['history', 'matching', 'frontend'] as const;
export type ClusterProcessName = (typeof TEMPORAL_SERVICES)[number] | 'ui' | 'codec' | (typeof API_INSTANCES)[number] | (typeof WORKERS)[number];

// Every pool that may hold connections at once: each Temporal service process's two stores, each
// API instance's storage and its create limits, each worker's storage, and room for operator
// shells and migrations. PostgreSQL's default of 100 is less: under load the last process to
// connect was refused ("sorry, too many clients already") and its request answered 503.
const DATABASE_CONNECTIONS =
  TEMPORAL_SERVICES.length * (TEMPORAL_POOL_SIZES.default + TEMPORAL_POOL_SIZES.visibility) +
  API_INSTANCES.length * (STORAGE_POOL_SIZE + RATE_LIMIT_POOL_SIZE) +
  WORKERS.length * STORAGE_POOL_SIZE +
  20;

// Certificates are made anew for every run; long enough for a cluster left running.
const CERTIFICATE_DAYS = 30;
const WORKER_READY = /"msg":"worker ready"/;

export interface ClusterOptions {
  /** Everything the cluster keeps: PostgreSQL's data (kept across runs), certificates, config, logs, cluster.env. */
  dataDir: string;
  /** The first API instance's port; the second listens on the next one. */
  apiPort: number;
  uiPort: number;
  /** The codec endpoint's (src/codec), which the UI's codec calls go to; omitted = a free one. */
  codecPort?: number;
  /** Added to the environment of every API instance and worker (tests: rate limits, a provider). */
  serviceEnv?: NodeJS.ProcessEnv;
  /** false: PostgreSQL without fsync, for test clusters thrown away afterwards. Default true. */
  durable?: boolean;
  log(message: string): void;
}

/**
 * The production topology on one machine (`npm run cluster`): PostgreSQL; the Temporal server
 * built from source, its history, matching and frontend (+ internal worker) services as separate
 * processes from one config file, the frontend behind mTLS; the Temporal UI; two API instances
 * sharing PostgreSQL; two workers. Each process can be killed and started again on its ports.
 */
export class Cluster {
  private readonly processes = new Map<ClusterProcessName, ClusterProcess>();

  private constructor(
    readonly options: ClusterOptions,
    readonly build: TemporalServerBuild,
    readonly postgres: ClusterPostgres,
    readonly certificates: Certificates,
    readonly frontendPort: number,
    readonly codecPort: number,
    /** The environment an operator shell, the API instances and the workers share; also in cluster.env. */
    readonly env: NodeJS.ProcessEnv,
  ) {}

  get envFile(): string {
    return path.join(this.options.dataDir, 'cluster.env');
  }

  get temporalAddress(): string {
    return `127.0.0.1:${this.frontendPort}`;
  }

  get apiUrls(): string[] {
    return API_INSTANCES.map((_, index) => `http://127.0.0.1:${this.options.apiPort + index}`);
  }

  get uiUrl(): string {
    return `http://localhost:${this.options.uiPort}`;
  }

  /** The codec endpoint as a browser on this machine reaches it: same site as the UI (localhost), so the sign-in cookie goes along with the UI's calls. */
  get codecUrl(): string {
    return `http://localhost:${this.codecPort}/codec`;
  }

  /** Where the codec's operator credential is (unless CODEC_CREDENTIAL is set in the shell). */
  get codecCredentialFile(): string {
    return new AppConfig(this.env).localCodecCredentialFile;
  }

  /** How a client of this cluster connects (mTLS with the run's client certificate). */
  get connectionOptions(): TemporalConnectionOptions {
    const result = temporalConnectionFromEnv(this.env, 'test');
    if (!result.ok) throw new Error(`the cluster's own settings are invalid: ${result.problems.join('; ')}`);
    return result.options;
  }

  process(name: ClusterProcessName): ClusterProcess {
    const found = this.processes.get(name);
    if (!found) throw new Error(`no process ${name} in the cluster`);
    return found;
  }

  get allProcesses(): ClusterProcess[] {
    return [...this.processes.values()];
  }

  /** kill -9 of one process. */
  async kill(name: ClusterProcessName): Promise<void> {
    await this.process(name).kill9();
  }

  /** Starts a process again, on its ports and files; resolves once it serves. */
  async restart(name: ClusterProcessName): Promise<void> {
    await this.process(name).start();
  }

  /** Assay's processes first, then the UI, the Temporal services and PostgreSQL. */
  async stop(): Promise<void> {
    const stopAll = (names: readonly ClusterProcessName[]) => Promise.all(names.map((name) => this.processes.get(name)?.stop()));
    await stopAll([...API_INSTANCES, ...WORKERS, 'codec']);
    await stopAll(['ui', 'frontend']);
    await stopAll(['matching', 'history']);
    await this.postgres.server.stop();
  }

  static async start(options: ClusterOptions): Promise<Cluster> {
    const { dataDir, log } = options;
    const dirs = clusterDirs(dataDir);
    const build = provisionTemporalServer();
    log(`Temporal server ${path.basename(build.dir)} in ${build.dir}`);
    log('starting PostgreSQL…');
    const postgres = await startClusterPostgres(dataDir, options.durable ?? true, DATABASE_CONNECTIONS);
    let cluster: Cluster | undefined;
    try {
      log(`PostgreSQL on 127.0.0.1:${postgres.server.port}; setting up Temporal's schema…`);
      await setUpTemporalSchema(build, { port: postgres.server.port, user: postgres.user, password: postgres.password });
      fs.rmSync(dirs.pki, { recursive: true, force: true });
      fs.mkdirSync(dirs.pki, { mode: 0o700 });
      const certificates = await makeCertificates(dirs.pki, CERTIFICATE_DAYS);
      const ports = await servicePorts();
      const env = operatorEnv(dataDir, `127.0.0.1:${ports.frontend.grpc}`, certificates, postgres.assayUrl);
      ensureClusterEncryption(env);
      const codecCredential = ensureLocalCodecCredential(new AppConfig(env));
      cluster = new Cluster(options, build, postgres, certificates, ports.frontend.grpc, options.codecPort ?? (await freePort()), env);
      await cluster.startTemporal(ports, dirs);
      await cluster.startAssay(dirs.logs);
      // The `temporal` CLI in a shell with cluster.env decodes through the codec; Assay's processes never see these.
      const codecEnv = { TEMPORAL_CODEC_ENDPOINT: cluster.codecUrl, TEMPORAL_CODEC_AUTH: `Bearer ${codecCredential}` };
      fs.writeFileSync(cluster.envFile, envFileText({ ...env, ...codecEnv }), { mode: 0o600 });
      return cluster;
    } catch (error) {
      if (cluster) await cluster.stop();
      else await postgres.server.stop();
      throw error;
    }
  }

  private add(process: ClusterProcess): ClusterProcess {
    this.processes.set(process.name as ClusterProcessName, process);
    return process;
  }

  private async startTemporal(ports: TemporalServicePorts, dirs: ClusterDirs): Promise<void> {
    const { log, uiPort } = this.options;
    const configFile = path.join(dirs.config, 'temporal-server.yaml');
    const dynamicConfigFile = path.join(dirs.config, 'temporal-dynamic-config.yaml');
    fs.writeFileSync(dynamicConfigFile, TEMPORAL_DYNAMIC_CONFIG);
    const postgres = { port: this.postgres.server.port, user: this.postgres.user, password: this.postgres.password };
    fs.writeFileSync(configFile, temporalServerConfig({ ports, postgres, certificates: this.certificates, dynamicConfigFile }), { mode: 0o600 });
    const server = async (name: ClusterProcessName, services: string[], ready: () => Promise<boolean>) =>
      this.add(
        new ClusterProcess({
          name,
          command: this.build.server,
          args: ['--config-file', configFile, '--allow-no-auth', 'start', ...services.flatMap((service) => ['--service', service])],
          env: { ...devServerEnvironment(process.env), [METRICS_PORT_VARIABLE]: String(await freePort()) },
          logFile: path.join(dirs.logs, `temporal-${name}.log`),
          ready,
        }),
      );
    const started = Date.now();
    log('starting Temporal history, matching and frontend (+ worker service), each its own process…');
    const history = await server('history', ['history'], () => acceptsConnections(ports.history.grpc));
    const matching = await server('matching', ['matching'], () => acceptsConnections(ports.matching.grpc));
    const frontend = await server('frontend', ['frontend', 'worker'], () => frontendServes(this.connectionOptions));
    // The first process on a new database writes the cluster's metadata; several at once collide.
    await history.start();
    await Promise.all([matching.start(), frontend.start()]);
    log(`Temporal serving on ${this.temporalAddress} (mTLS) after ${((Date.now() - started) / 1000).toFixed(1)} s; setting up namespaces…`);
    const connection = await Connection.connect(this.connectionOptions);
    try {
      await setUpNamespaces(connection, Object.values(CLUSTER_NAMESPACES), new AppConfig(this.env).values.RETENTION_PERIOD);
    } finally {
      await connection.close();
    }
    const uiConfigDir = path.join(dirs.config, 'ui');
    fs.mkdirSync(uiConfigDir, { recursive: true });
    const uiConfig = uiServerConfig({ frontendPort: this.frontendPort, uiPort, defaultNamespace: CLUSTER_NAMESPACES.sandbox, certificates: this.certificates, codecEndpoint: this.codecUrl });
    fs.writeFileSync(path.join(uiConfigDir, 'cluster.yaml'), uiConfig);
    await this.add(
      new ClusterProcess({
        name: 'ui',
        command: this.build.uiServer,
        args: ['--root', dirs.config, '--config', 'ui', '--env', 'cluster', 'start'],
        env: devServerEnvironment(process.env),
        logFile: path.join(dirs.logs, 'temporal-ui.log'),
        ready: () => answersOk(this.uiUrl),
      }),
    ).start();
  }

  private async startAssay(logsDir: string): Promise<void> {
    const dist = path.join(repoRoot(__dirname), 'dist', 'src');
    const service = (name: ClusterProcessName, script: string, env: NodeJS.ProcessEnv, ready: (logFile: string, offset: number) => Promise<boolean>, nodeFlags: readonly string[] = []) => {
      const logFile = path.join(logsDir, `${name}.log`);
      return this.add(new ClusterProcess({ name, command: process.execPath, args: [...nodeFlags, path.join(dist, script)], env, logFile, ready: (offset) => ready(logFile, offset) }));
    };
    const base = { LOG_LEVEL: 'info', ...this.env, ...this.options.serviceEnv };
    const apis = API_INSTANCES.map((name, index) => {
      const url = this.apiUrls[index];
      return service(name, path.join('api', 'main.js'), { ...base, PORT: String(this.options.apiPort + index), HOST: '127.0.0.1' }, () => answersOk(`${url}/readyz`), API_NODE_FLAGS);
    });
    const workers = await Promise.all(
      WORKERS.map(async (name) =>
        service(name, path.join('worker', 'main.js'), { ...base, WORKER_METRICS_PORT: String(await freePort()) }, async (logFile, offset) =>
          countLogLines(logFile, offset, WORKER_READY) >= Object.keys(CLUSTER_NAMESPACES).length,
        ),
      ),
    );
    const uiOrigins = [this.uiUrl, `http://127.0.0.1:${this.options.uiPort}`].join(',');
    const codecEnv = { ...base, CODEC_HOST: '127.0.0.1', CODEC_PORT: String(this.codecPort), CODEC_ALLOWED_ORIGINS: uiOrigins };
    const codec = service('codec', path.join('codec', 'main.js'), codecEnv, () => answersOk(`${this.codecUrl}/`));
    this.options.log(`starting ${apis.length} API instances, ${workers.length} workers and the codec endpoint…`);
    await Promise.all([...apis, ...workers, codec].map((process) => process.start()));
  }
}

interface ClusterDirs {
  logs: string;
  config: string;
  pki: string;
}

/**
 * The cluster's directory may be traversed by others (PostgreSQL runs as its own OS user under
 * root and must reach its data directory), not listed; what is secret below it is owner-only.
 */
function clusterDirs(dataDir: string): ClusterDirs {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o711);
  const dirs = { logs: path.join(dataDir, 'logs'), config: path.join(dataDir, 'config'), pki: path.join(dataDir, 'pki') };
  for (const dir of [dirs.logs, dirs.config]) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dirs;
}

async function servicePorts(): Promise<TemporalServicePorts> {
  const pair = async () => ({ grpc: await freePort(), membership: await freePort() });
  return {
    frontend: { ...(await pair()), http: await freePort() },
    history: await pair(),
    matching: await pair(),
    worker: await pair(),
  };
}

/**
 * What an operator shell needs to reach the cluster (and what Assay's processes run with): the
 * key database, and the frontend with the run's client certificate, in Temporal's own variables.
 * A developer's Temporal profile and TLS settings for other clusters are left out.
 */
function operatorEnv(dataDir: string, address: string, certificates: Certificates, databaseUrl: string): NodeJS.ProcessEnv {
  return {
    ...localTemporalEnv(process.env, address, dataDir),
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: certificates.ca.cert,
    TEMPORAL_TLS_CLIENT_CERT_PATH: certificates.client.cert,
    TEMPORAL_TLS_CLIENT_KEY_PATH: certificates.client.key,
    TEMPORAL_TLS_SERVER_NAME: 'localhost',
    TEMPORAL_NAMESPACE_SANDBOX: CLUSTER_NAMESPACES.sandbox,
    TEMPORAL_NAMESPACE_PRODUCTION: CLUSTER_NAMESPACES.production,
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(dataDir, 'assay'),
  };
}

/** The settings of `operatorEnv` that differ from the shell's, and the `temporal` CLI's codec settings, as `set -a; . cluster.env` reads them. */
export const CLUSTER_ENV_VARIABLES = [
  'DATABASE_URL',
  'DATA_DIR',
  'TEMPORAL_ADDRESS',
  'TEMPORAL_CONFIG_FILE',
  'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
  'TEMPORAL_TLS_CLIENT_CERT_PATH',
  'TEMPORAL_TLS_CLIENT_KEY_PATH',
  'TEMPORAL_TLS_SERVER_NAME',
  'TEMPORAL_NAMESPACE_SANDBOX',
  'TEMPORAL_NAMESPACE_PRODUCTION',
  'TEMPORAL_CODEC_ENDPOINT',
  'TEMPORAL_CODEC_AUTH',
] as const;

function envFileText(env: NodeJS.ProcessEnv): string {
  const quoted = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
  const lines = CLUSTER_ENV_VARIABLES.map((name) => `${name}=${quoted(env[name] ?? '')}`);
  return ['# Written by npm run cluster for this run (ports and certificates change with each run).', '# Use: set -a; . <this file>; set +a', ...lines, ''].join('\n');
}

import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import * as fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { TLSConfig } from '@temporalio/common/lib/internal-non-workflow';
import { loadClientConfigProfile, type ClientConfigProfile, type ConfigDataSource } from '@temporalio/envconfig';
import { KEY_ENVIRONMENTS, type KeyEnvironment } from '../keys/api-key';

const DEFAULT_ADDRESS = 'localhost:7233';

/** Suffix of an environment's own settings, as in TEMPORAL_NAMESPACE_SANDBOX / _PRODUCTION. */
const SUFFIXES: Record<KeyEnvironment, string> = { test: 'SANDBOX', live: 'PRODUCTION' };

// The settings an environment may have its own of: on Temporal Cloud each namespace with mTLS has
// its own endpoint (<namespace>.<account>.tmprl.cloud), and a profile can give it its own certificate.
const PER_ENVIRONMENT = ['TEMPORAL_PROFILE', 'TEMPORAL_ADDRESS'] as const;

/**
 * What both Connection (client) and NativeConnection (worker) need to reach Temporal; the one
 * shape is assignable to both SDKs' option types, so the API, the worker and the CLI connect alike.
 */
export interface TemporalConnectionOptions {
  address: string;
  /** false: plaintext; an object (possibly empty): TLS, with mTLS when it has a client pair. */
  tls: TLSConfig | false;
  apiKey?: string;
  metadata?: Record<string, string>;
}

export type TemporalConnections = Record<KeyEnvironment, TemporalConnectionOptions>;

export type TemporalConnectionResult<T> = { ok: true; options: T } | { ok: false; problems: string[] };

/**
 * Each environment's connection settings, read the way Temporal's own tools read them
 * (@temporalio/envconfig): the profile TEMPORAL_PROFILE (else "default") of the TOML file
 * TEMPORAL_CONFIG_FILE (else ~/.config/temporalio/temporal.toml, if any), overridden by
 * TEMPORAL_ADDRESS, TEMPORAL_API_KEY, TEMPORAL_TLS, TEMPORAL_TLS_* and TEMPORAL_GRPC_META_*.
 * TEMPORAL_PROFILE_SANDBOX / _PRODUCTION and TEMPORAL_ADDRESS_SANDBOX / _PRODUCTION replace
 * TEMPORAL_PROFILE and TEMPORAL_ADDRESS for one environment. Every problem is reported once, one
 * line each, naming the setting and never its value: keys and API keys must not reach a log.
 */
export function temporalConnectionsFromEnv(env: NodeJS.ProcessEnv): TemporalConnectionResult<TemporalConnections> {
  const results = KEY_ENVIRONMENTS.map((environment) => temporalConnectionFromEnv(env, environment));
  const problems = [...new Set(results.flatMap((result) => (result.ok ? [] : result.problems)))];
  if (problems.length > 0) return { ok: false, problems };
  const [test, live] = results.map((result) => (result.ok ? result.options : undefined)) as TemporalConnectionOptions[];
  return { ok: true, options: { test, live } };
}

/** Whether both environments can share one connection: the same settings exactly. */
export function sameConnection(connections: TemporalConnections): boolean {
  return isDeepStrictEqual(connections.test, connections.live);
}

/** For logs: where and how Assay connects, without any secret. */
export function describeTemporalConnections(connections: TemporalConnections): string {
  if (sameConnection(connections)) return describeTemporalConnection(connections.test);
  return `sandbox ${describeTemporalConnection(connections.test)}, production ${describeTemporalConnection(connections.live)}`;
}

/** One environment's settings: see temporalConnectionsFromEnv. */
export function temporalConnectionFromEnv(env: NodeJS.ProcessEnv, environment: KeyEnvironment): TemporalConnectionResult<TemporalConnectionOptions> {
  const names = new SettingNames(env, SUFFIXES[environment]);
  const scoped = { ...env };
  for (const name of PER_ENVIRONMENT) scoped[name] = env[names.scoped(name)];
  const problems: string[] = [];
  const file = configFileProblem(env);
  if (file) problems.push(file);
  const profile = loadProfile(scoped, names, problems);
  if (env.TEMPORAL_NAMESPACE !== undefined) {
    problems.push('TEMPORAL_NAMESPACE: Assay has one namespace per environment; set TEMPORAL_NAMESPACE_SANDBOX and TEMPORAL_NAMESPACE_PRODUCTION instead');
  }
  if (!profile) return { ok: false, problems };

  const address = profile.address ?? DEFAULT_ADDRESS;
  if (!/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):\d{1,5}$/.test(address)) {
    problems.push(`${names.address}: "${address}" is not host:port`);
  }
  const tls = tlsOptions(profile, names, problems);
  if (tls === false && profile.apiKey !== undefined) {
    problems.push(`${names.apiKey}: an API key is never sent without TLS; remove ${names.tlsDisabled} or the API key`);
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    options: {
      address,
      // An API key alone means TLS, as Temporal Cloud requires and envconfig does.
      tls: tls ?? (profile.apiKey !== undefined ? {} : false),
      ...(profile.apiKey !== undefined ? { apiKey: profile.apiKey } : {}),
      ...(profile.grpcMeta ? { metadata: profile.grpcMeta } : {}),
    },
  };
}

/** For logs: where and how one environment connects, without any secret. */
export function describeTemporalConnection(options: TemporalConnectionOptions): string {
  const security = options.tls === false ? 'plaintext' : options.tls.clientCertPair ? 'mTLS' : 'TLS';
  return `${options.address} (${security}${options.apiKey !== undefined ? ', API key' : ''})`;
}

/** envconfig treats a missing file as "no file"; a file named explicitly that is missing is a mistake. */
function configFileProblem(env: NodeJS.ProcessEnv): string | undefined {
  const file = env.TEMPORAL_CONFIG_FILE;
  if (file === undefined || fs.existsSync(file)) return undefined;
  return `TEMPORAL_CONFIG_FILE: no file at ${file}`;
}

function loadProfile(scoped: NodeJS.ProcessEnv, names: SettingNames, problems: string[]): ClientConfigProfile | undefined {
  try {
    return loadClientConfigProfile({ overrideEnvVars: definedOnly(scoped) });
  } catch (error) {
    problems.push(profileProblem(error, names));
    return undefined;
  }
}

/**
 * The parser's own message quotes the offending line, which may hold an API key or a private key,
 * so only where it is goes into the problem.
 */
function profileProblem(error: unknown, names: SettingNames): string {
  const file = names.configFile;
  const profileName = names.profileName;
  const where = error as { line?: unknown; column?: unknown; message?: unknown; code?: unknown };
  if (typeof where.line === 'number' && typeof where.column === 'number') {
    return `TEMPORAL_CONFIG_FILE: ${file} is not valid TOML (line ${where.line}, column ${where.column})`;
  }
  const message = typeof where.message === 'string' ? where.message : '';
  if (/^Profile '.*' not found/.test(message)) {
    return `${names.scoped('TEMPORAL_PROFILE')}: no profile "${profileName}" in ${file}`;
  }
  const both = /^Cannot specify both (\w+) and (\w+)$/.exec(message);
  if (both) return `TEMPORAL_CONFIG_FILE: ${file} sets both ${both[1]} and ${both[2]} (an environment variable may add one of them); keep one`;
  const reason = typeof where.code === 'string' ? where.code : error instanceof Error ? error.name : 'unknown error';
  return `TEMPORAL_CONFIG_FILE: ${file} could not be read as a Temporal config file (${reason})`;
}

function tlsOptions(profile: ClientConfigProfile, names: SettingNames, problems: string[]): TLSConfig | false | undefined {
  const tls = profile.tls;
  if (tls === undefined) return undefined;
  const given = (['clientCert', 'clientKey', 'serverCACert', 'serverName'] as const).filter((field) => tls[field] !== undefined);
  if (tls.disabled === true) {
    for (const field of given) problems.push(`${names.tls(field)}: set while TLS is off (${names.tlsDisabled}); remove one of them`);
    return false;
  }
  const serverCa = readPem(tls.serverCACert, names.tls('serverCACert'), 'certificate', problems);
  const certificate = readPem(tls.clientCert, names.tls('clientCert'), 'certificate', problems);
  const key = readPem(tls.clientKey, names.tls('clientKey'), 'private key', problems);
  if (tls.clientKey !== undefined && tls.clientCert === undefined) {
    problems.push(`${names.tls('clientKey')}: a client key needs its client certificate (TEMPORAL_TLS_CLIENT_CERT_PATH or _DATA)`);
  }
  if (tls.clientCert !== undefined && tls.clientKey === undefined) {
    problems.push(`${names.tls('clientCert')}: a client certificate needs its private key (TEMPORAL_TLS_CLIENT_KEY_PATH or _DATA)`);
  }
  if (certificate && key && !certificate.parsed.checkPrivateKey(key.parsed)) {
    problems.push(`${names.tls('clientKey')}: is not the private key of the client certificate (${names.tls('clientCert')})`);
  }
  return {
    ...(tls.serverName !== undefined ? { serverNameOverride: tls.serverName } : {}),
    ...(serverCa ? { serverRootCACertificate: serverCa.bytes } : {}),
    ...(certificate && key ? { clientCertPair: { crt: certificate.bytes, key: key.bytes } } : {}),
  };
}

interface Pem<T> {
  bytes: Uint8Array;
  parsed: T;
}

function readPem(source: ConfigDataSource | undefined, setting: string, kind: 'certificate', problems: string[]): Pem<X509Certificate> | undefined;
function readPem(source: ConfigDataSource | undefined, setting: string, kind: 'private key', problems: string[]): Pem<KeyObject> | undefined;
function readPem(source: ConfigDataSource | undefined, setting: string, kind: 'certificate' | 'private key', problems: string[]): Pem<X509Certificate | KeyObject> | undefined {
  if (source === undefined) return undefined;
  let bytes: Uint8Array;
  if ('path' in source) {
    try {
      bytes = fs.readFileSync(source.path);
    } catch (error) {
      problems.push(`${setting}: cannot read ${source.path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
      return undefined;
    }
  } else {
    bytes = typeof source.data === 'string' ? Buffer.from(source.data) : source.data;
  }
  // The core reads PEM only; DER or a pasted secret would otherwise fail at the first connect, without saying which setting.
  const text = Buffer.from(bytes).toString('utf8');
  try {
    if (!text.includes('-----BEGIN ')) throw new Error('not PEM');
    return { bytes, parsed: kind === 'certificate' ? new X509Certificate(bytes) : createPrivateKey(text) };
  } catch {
    problems.push(`${setting}: is not a PEM ${kind}`);
    return undefined;
  }
}

/** Names a setting as the operator wrote it: the environment variable when set, else the config file's key. */
class SettingNames {
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly suffix: string,
  ) {}

  /** The variable that holds this environment's value of a per-environment setting. */
  scoped(name: (typeof PER_ENVIRONMENT)[number]): string {
    const own = `${name}_${this.suffix}`;
    return this.env[own] !== undefined ? own : name;
  }

  get profileName(): string {
    return this.env[this.scoped('TEMPORAL_PROFILE')] ?? 'default';
  }

  get configFile(): string {
    return this.env.TEMPORAL_CONFIG_FILE ?? 'the Temporal config file';
  }

  get address(): string {
    return this.pick(this.scoped('TEMPORAL_ADDRESS'), 'address');
  }

  get apiKey(): string {
    return this.pick('TEMPORAL_API_KEY', 'api_key');
  }

  get tlsDisabled(): string {
    return this.pick('TEMPORAL_TLS', 'tls.disabled');
  }

  tls(field: 'clientCert' | 'clientKey' | 'serverCACert' | 'serverName'): string {
    const [envName, tomlName] = TLS_SETTINGS[field];
    if (field === 'serverName') return this.pick(envName, tomlName);
    const asData = `${envName}_DATA`;
    if (this.env[asData] !== undefined) return asData;
    return this.pick(`${envName}_PATH`, `${tomlName}_path or ${tomlName}_data`);
  }

  private pick(envName: string, tomlName: string): string {
    if (this.env[envName] !== undefined) return envName;
    return `profile "${this.profileName}" ${tomlName} in ${this.configFile}`;
  }
}

const TLS_SETTINGS = {
  clientCert: ['TEMPORAL_TLS_CLIENT_CERT', 'tls.client_cert'],
  clientKey: ['TEMPORAL_TLS_CLIENT_KEY', 'tls.client_key'],
  serverCACert: ['TEMPORAL_TLS_SERVER_CA_CERT', 'tls.server_ca_cert'],
  serverName: ['TEMPORAL_TLS_SERVER_NAME', 'tls.server_name'],
} as const;

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

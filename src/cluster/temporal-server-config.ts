import type { Certificates } from './certificates';
import { FAIR_DISPATCH_DYNAMIC_CONFIG } from '../common/temporal/fair-dispatch-config';
import { ASSAY_SERVER_DYNAMIC_CONFIG } from '../common/temporal/server-dynamic-config';

/** The ports of the server's services: fixed for a cluster's run, so a service restarted after a kill comes back where the others look for it. */
export interface TemporalServicePorts {
  frontend: { grpc: number; http: number; membership: number };
  history: { grpc: number; membership: number };
  matching: { grpc: number; membership: number };
  worker: { grpc: number; membership: number };
}

export interface TemporalServerConfigOptions {
  ports: TemporalServicePorts;
  postgres: { port: number; user: string; password: string };
  certificates: Certificates;
  dynamicConfigFile: string;
}

/** Each process reads its Prometheus port from this variable: the services share one config file but not a port. */
export const METRICS_PORT_VARIABLE = 'ASSAY_TEMPORAL_METRICS_PORT';

// Fixed when the database is created and never changeable afterwards; enough for one machine (docs/production.md, Sizing).
const HISTORY_SHARDS = 4;

/** Connections each Temporal service process may hold to its two stores. */
export const TEMPORAL_POOL_SIZES = { default: 20, visibility: 10 };

/**
 * The config file every service process of the cluster starts from (`temporal-server
 * --config-file … start --service …`): PostgreSQL persistence and visibility, services on loopback,
 * and the frontend behind mTLS: it requires a client certificate signed by the cluster's CA, which
 * the system worker presents too. Internode traffic stays on loopback, in plaintext.
 */
export function temporalServerConfig(options: TemporalServerConfigOptions): string {
  const { ports, postgres, certificates } = options;
  const quote = (value: string | number) => JSON.stringify(String(value));
  const datastore = (database: string, maxConns: number) => `
      sql:
        pluginName: "postgres12"
        databaseName: ${quote(database)}
        connectAddr: ${quote(`127.0.0.1:${postgres.port}`)}
        connectProtocol: "tcp"
        user: ${quote(postgres.user)}
        password: ${quote(postgres.password)}
        maxConns: ${maxConns}
        maxIdleConns: ${maxConns}
        maxConnLifetime: "1h"`;
  const service = (name: string, rpc: { grpc: number; membership: number; http?: number }) => `
  ${name}:
    rpc:
      grpcPort: ${rpc.grpc}
      membershipPort: ${rpc.membership}
      bindOnIP: "127.0.0.1"${rpc.http === undefined ? '' : `\n      httpPort: ${rpc.http}`}`;
  const trustCa = `
        serverName: "localhost"
        rootCaFiles: [${quote(certificates.ca.cert)}]`;
  return `# enable-template
# Written by npm run cluster for this run; every service process starts from it.
log:
  stdout: true
  level: warn

persistence:
  defaultStore: postgres-default
  visibilityStore: postgres-visibility
  numHistoryShards: ${HISTORY_SHARDS}
  datastores:
    postgres-default:${datastore('temporal', TEMPORAL_POOL_SIZES.default)}
    postgres-visibility:${datastore('temporal_visibility', TEMPORAL_POOL_SIZES.visibility)}

global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"
  metrics:
    prometheus:
      framework: "tally"
      timerType: "histogram"
      listenAddress: "127.0.0.1:{{ env "${METRICS_PORT_VARIABLE}" }}"
  tls:
    frontend:
      server:
        certFile: ${quote(certificates.server.cert)}
        keyFile: ${quote(certificates.server.key)}
        requireClientAuth: true
        clientCaFiles: [${quote(certificates.ca.cert)}]
      client:${trustCa}
    systemWorker:
      certFile: ${quote(certificates.client.cert)}
      keyFile: ${quote(certificates.client.key)}
      client:${trustCa}

services:${service('frontend', ports.frontend)}${service('history', ports.history)}${service('matching', ports.matching)}${service('worker', ports.worker)}

clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: ${quote(`127.0.0.1:${ports.frontend.grpc}`)}
      httpAddress: ${quote(`127.0.0.1:${ports.frontend.http}`)}

dcRedirectionPolicy:
  policy: "noop"

dynamicConfigClient:
  filepath: ${quote(options.dynamicConfigFile)}
  pollInterval: "10s"
`;
}

/** The cluster's dynamic config file: what the dev server is given too (fair dispatch, Assay's changes to the defaults, among them deletes that do not wait ~33 s). */
export const TEMPORAL_DYNAMIC_CONFIG = [
  '# Written by npm run cluster.',
  ...Object.entries({ ...FAIR_DISPATCH_DYNAMIC_CONFIG, ...ASSAY_SERVER_DYNAMIC_CONFIG }).map(
    ([key, value]) => `${key}:\n  - value: ${JSON.stringify(value)}`,
  ),
  '',
].join('\n');

import { parse } from 'yaml';
import type { Certificates } from '../../../src/cluster/certificates';
import { METRICS_PORT_VARIABLE, TEMPORAL_DYNAMIC_CONFIG, temporalServerConfig } from '../../../src/cluster/temporal-server-config';

const at = (name: string) => ({ cert: `/pki/${name}.crt`, key: `/pki/${name}.key` });
const CERTIFICATES: Certificates = { dir: '/pki', ca: at('ca'), server: at('server'), client: at('client'), stranger: at('stranger') };
const PORTS = {
  frontend: { grpc: 17233, http: 17243, membership: 16933 },
  history: { grpc: 17234, membership: 16934 },
  matching: { grpc: 17235, membership: 16935 },
  worker: { grpc: 17239, membership: 16939 },
};

const text = temporalServerConfig({
  ports: PORTS,
  postgres: { port: 15432, user: 'postgres', password: 'pa"ss' },
  certificates: CERTIFICATES,
  dynamicConfigFile: '/config/dynamic.yaml',
});
// What the server reads: the file rendered as a Go template (only `env` is used), here for metrics port 19000.
const config = parse(text.replace(/\{\{ env "(\w+)" \}\}/g, (_, name: string) => (name === METRICS_PORT_VARIABLE ? '19000' : '')));

describe('the Temporal server config of npm run cluster', () => {
  it('is a template (the first line says so) whose metrics port each process gives in its environment', () => {
    expect(text.split('\n')[0]).toBe('# enable-template');
    expect(text).toContain(`listenAddress: "127.0.0.1:{{ env "${METRICS_PORT_VARIABLE}" }}"`);
    expect(config.global.metrics.prometheus.listenAddress).toBe('127.0.0.1:19000');
  });

  it('keeps both stores in PostgreSQL, with the password quoted as YAML', () => {
    const { datastores } = config.persistence;
    expect(Object.values(datastores).map((store: any) => [store.sql.pluginName, store.sql.databaseName, store.sql.connectAddr, store.sql.password])).toEqual([
      ['postgres12', 'temporal', '127.0.0.1:15432', 'pa"ss'],
      ['postgres12', 'temporal_visibility', '127.0.0.1:15432', 'pa"ss'],
    ]);
  });

  it("requires the cluster CA's client certificate at the frontend, and gives the system worker one", () => {
    expect(config.global.tls.frontend.server).toEqual({ certFile: '/pki/server.crt', keyFile: '/pki/server.key', requireClientAuth: true, clientCaFiles: ['/pki/ca.crt'] });
    expect(config.global.tls.systemWorker).toEqual({ certFile: '/pki/client.crt', keyFile: '/pki/client.key', client: { serverName: 'localhost', rootCaFiles: ['/pki/ca.crt'] } });
  });

  it('puts every service on its own loopback ports', () => {
    expect(config.services.frontend.rpc).toEqual({ grpcPort: 17233, membershipPort: 16933, bindOnIP: '127.0.0.1', httpPort: 17243 });
    for (const name of ['history', 'matching', 'worker'] as const) {
      expect(config.services[name].rpc).toEqual({ grpcPort: PORTS[name].grpc, membershipPort: PORTS[name].membership, bindOnIP: '127.0.0.1' });
    }
    expect(config.clusterMetadata.clusterInformation.active.rpcAddress).toBe('127.0.0.1:17233');
  });
});

describe('the dynamic config of npm run cluster', () => {
  it('turns on fair dispatch as the dev server has it, reads search attributes once per refresh, deletes without waiting for close tasks and dispatches no activity eagerly', () => {
    expect(parse(TEMPORAL_DYNAMIC_CONFIG)).toEqual({
      'matching.enableFairness': [{ value: true }],
      'system.forceSearchAttributesCacheRefreshOnRead': [{ value: false }],
      'history.transferProcessorEnsureCloseBeforeDelete': [{ value: false }],
      'system.enableActivityEagerExecution': [{ value: false }],
    });
  });
});

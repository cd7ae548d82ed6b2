import { parse } from 'yaml';
import type { Certificates } from '../../../src/cluster/certificates';
import { uiServerConfig } from '../../../src/cluster/ui-server-config';

const at = (name: string) => ({ cert: `/pki/${name}.crt`, key: `/pki/${name}.key` });
const CERTIFICATES: Certificates = { dir: '/pki', ca: at('ca'), server: at('server'), client: at('client'), stranger: at('stranger') };

const config = parse(
  uiServerConfig({ frontendPort: 17233, uiPort: 18233, defaultNamespace: 'assay-sandbox', certificates: CERTIFICATES, codecEndpoint: 'http://localhost:18234/codec' }),
);

describe('the Temporal UI server config of npm run cluster', () => {
  it('reaches the frontend over mTLS with the client certificate', () => {
    expect(config).toMatchObject({ temporalGrpcAddress: '127.0.0.1:17233', port: 18233, defaultNamespace: 'assay-sandbox' });
    expect(config.tls).toEqual({ caFile: '/pki/ca.crt', certFile: '/pki/client.crt', keyFile: '/pki/client.key', serverName: 'localhost', enableHostVerification: true });
  });

  it('sends payloads to the codec endpoint with the browser’s credentials (its sign-in cookie) and no access token', () => {
    // The keys the UI server reads (server/config/config.go in temporalio/ui-server 2.54.1).
    expect(config.codec).toEqual({ endpoint: 'http://localhost:18234/codec', includeCredentials: true });
  });
});

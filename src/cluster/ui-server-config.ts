import type { Certificates } from './certificates';

export interface UiServerConfigOptions {
  frontendPort: number;
  uiPort: number;
  defaultNamespace: string;
  certificates: Certificates;
  /** The codec endpoint as the browser reaches it (same site as the UI, so its SameSite=Strict sign-in cookie goes along). */
  codecEndpoint: string;
}

/**
 * The Temporal UI server's config for the cluster: the frontend over mTLS, and the codec endpoint
 * with cross-origin credentials included, so a browser signed in at the codec sees plaintext.
 */
export function uiServerConfig(options: UiServerConfigOptions): string {
  const { certificates } = options;
  const quote = (value: string | number) => JSON.stringify(String(value));
  return `# Written by npm run cluster.
temporalGrpcAddress: ${quote(`127.0.0.1:${options.frontendPort}`)}
host: "127.0.0.1"
port: ${options.uiPort}
enableUi: true
defaultNamespace: ${quote(options.defaultNamespace)}
disableNewsFetch: true
tls:
  caFile: ${quote(certificates.ca.cert)}
  certFile: ${quote(certificates.client.cert)}
  keyFile: ${quote(certificates.client.key)}
  serverName: "localhost"
  enableHostVerification: true
codec:
  endpoint: ${quote(options.codecEndpoint)}
  includeCredentials: true
`;
}

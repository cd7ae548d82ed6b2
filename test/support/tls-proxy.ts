import * as fs from 'node:fs';
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { CertificatePaths } from './test-certificates';

export interface TlsProxyOptions {
  /** host:port of the plaintext server behind the proxy (the dev server). */
  target: string;
  /** The proxy's own certificate and key. */
  server: CertificatePaths;
  /** Client certificates must chain to this CA (mTLS). */
  clientCa: string;
}

export interface TlsProxy {
  address: string;
  /** Connections that completed the handshake with a trusted client certificate. */
  readonly accepted: number;
  /** Handshakes refused, e.g. for a missing or untrusted client certificate. */
  readonly refused: number;
  close(): Promise<void>;
}

/**
 * A TLS-terminating TCP proxy requiring a client certificate, for a Temporal server that speaks
 * plaintext (the CLI dev server has no TLS): what a secured cluster looks like to its clients.
 * gRPC needs HTTP/2, which clients only speak over TLS once ALPN agrees on h2.
 */
export async function startTlsProxy(options: TlsProxyOptions): Promise<TlsProxy> {
  const [targetHost, targetPort] = splitAddress(options.target);
  const sockets = new Set<net.Socket>();
  const counts = { accepted: 0, refused: 0 };
  const server = tls.createServer(
    {
      cert: fs.readFileSync(options.server.cert),
      key: fs.readFileSync(options.server.key),
      ca: fs.readFileSync(options.clientCa),
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (client) => {
      counts.accepted++;
      const upstream = net.connect(targetPort, targetHost);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      }
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.pipe(upstream).pipe(client);
    },
  );
  server.on('tlsClientError', () => counts.refused++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    get accepted() {
      return counts.accepted;
    },
    get refused() {
      return counts.refused;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function splitAddress(address: string): [string, number] {
  const at = address.lastIndexOf(':');
  return [address.slice(0, at), Number(address.slice(at + 1))];
}

import type * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts `server` on 127.0.0.1, on a free port unless `port` names one, and returns the port. */
export async function listenOnLoopback(server: http.Server, port = 0): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

/** Stops `server` at once: connections kept alive or left hanging are dropped, not waited for. */
export async function closeNow(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** Calls `handle` with the request's whole body, as UTF-8 text, once it has arrived. */
export function onBody(request: http.IncomingMessage, handle: (body: string) => void): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => handle(Buffer.concat(chunks).toString('utf8')));
}

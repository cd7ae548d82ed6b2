import type * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on a free loopback port and resolves with the server's base URL. */
export async function listenOnLoopback(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes the server, cutting the connections it holds open (a server that never answers holds them all). */
export async function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

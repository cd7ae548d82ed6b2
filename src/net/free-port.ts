import * as net from 'node:net';

/** A TCP port free on loopback right now, so tests, the bench and the chaos stack never collide with each other or with `npm start`. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

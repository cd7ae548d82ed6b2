import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Where the traced bench sends its spans: an OTLP/HTTP endpoint that reads each export and
 * answers success, as a collector would, and keeps nothing. It runs in the bench process, so its
 * own cost shows under `client`, not under the API's or the worker's CPU.
 */
export async function startOtlpSink(): Promise<{ tracesUrl: string; exports: () => number; close: () => Promise<void> }> {
  let exports = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    tracesUrl: `http://127.0.0.1:${port}/v1/traces`,
    exports: () => exports,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

import * as http from 'node:http';

export interface GetResult {
  status: number;
  ms: number;
}

/**
 * GETs over a pool of keep-alive connections, as a fleet of polling clients would hold them.
 * Latency runs from when the request was due, so time spent waiting for a free connection counts.
 */
export class HttpGetter {
  private readonly agent: http.Agent;
  private readonly origin: URL;

  constructor(baseUrl: string, private readonly headers: http.OutgoingHttpHeaders, maxSockets = 64) {
    this.origin = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  /** GETs `path` with the getter's headers and `headers`. */
  get(path: string, headers: http.OutgoingHttpHeaders = {}): Promise<GetResult> {
    const dueAt = performance.now();
    return new Promise((resolve) => {
      const request = http.get(
        { host: this.origin.hostname, port: this.origin.port, path, headers: { ...this.headers, ...headers }, agent: this.agent },
        (response) => {
          response.resume();
          response.once('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - dueAt }));
        },
      );
      request.once('error', () => resolve({ status: 0, ms: performance.now() - dueAt }));
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

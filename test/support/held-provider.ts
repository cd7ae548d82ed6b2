import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an OpenAI-compatible provider that holds each request until the test releases
 * it, so a task can be caught mid-flight.
 */
export class HeldProvider {
  readonly server = http.createServer((req, res) => this.onRequest(req, res));
  requests = 0;
  private held: http.ServerResponse[] = [];
  private holding = true;
  private arrivals: Array<() => void> = [];

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  nextRequest(): Promise<void> {
    return new Promise((resolve) => this.arrivals.push(resolve));
  }

  /** Hold every later request again, until the next release(). */
  hold(): void {
    this.holding = true;
  }

  release(): void {
    this.holding = false;
    this.held.forEach((res) => answer(res));
    this.held = [];
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    req.resume();
    req.on('end', () => {
      this.requests++;
      this.arrivals.shift()?.();
      if (this.holding) this.held.push(res);
      else answer(res);
    });
  }
}

function answer(res: http.ServerResponse): void {
  if (res.destroyed) return;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ choices: [{ message: { content: 'The provider summary.' } }] }));
}

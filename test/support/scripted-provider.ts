import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for an OpenAI-compatible chat-completions endpoint: answers each request
 * with the next scripted HTTP status (200 once the script runs out) and counts what it received.
 */
export class ScriptedProvider {
  requests = 0;
  private script: number[] = [];
  private readonly server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      this.requests++;
      const status = this.script.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(status === 200 ? JSON.stringify({ choices: [{ message: { content: this.summary } }] }) : '{"error":"scripted"}');
    });
  });

  constructor(readonly summary = 'A scripted summary.') {}

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** The statuses of the next requests, in order. */
  answer(...statuses: number[]): void {
    this.requests = 0;
    this.script = statuses;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

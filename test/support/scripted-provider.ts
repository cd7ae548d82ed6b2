import * as http from 'node:http';
import { closeNow, listenOnLoopback, onBody } from './loopback-server';
import { chatCompletionBody } from './remote-provider-env';

/**
 * A loopback stand-in for an OpenAI-compatible chat-completions endpoint: answers each request
 * with the next scripted HTTP status (200 once the script runs out), counts what it received and
 * keeps each request's body, in the order they came.
 */
export class ScriptedProvider {
  requests = 0;
  readonly bodies: string[] = [];
  /** When each body arrived (ms since the epoch), in the same order. */
  readonly receivedAt: number[] = [];
  private script: number[] = [];
  private readonly server = http.createServer((req, res) => {
    onBody(req, (body) => {
      this.requests++;
      this.bodies.push(body);
      this.receivedAt.push(Date.now());
      const status = this.script.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(status === 200 ? chatCompletionBody(this.summary) : '{"error":"scripted"}');
    });
  });

  constructor(readonly summary = 'A scripted summary.') {}

  async listen(): Promise<string> {
    return `http://127.0.0.1:${await listenOnLoopback(this.server)}/v1`;
  }

  /** The statuses of the next requests, in order. */
  answer(...statuses: number[]): void {
    this.requests = 0;
    this.script = statuses;
  }

  close(): Promise<void> {
    return closeNow(this.server);
  }
}

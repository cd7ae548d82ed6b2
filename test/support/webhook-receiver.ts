import * as http from 'node:http';
import { closeNow, listenOnLoopback, onBody } from './loopback-server';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  path: string;
}

/** What the receiver does with the next request: answer with a status (and headers), or never answer. */
export type ReceiverAnswer = { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A real HTTP receiver on loopback that records every request and answers from a script
 * (200 once the script is used up). It can go down and come back on the same port.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private script: ReceiverAnswer[] = [];
  private server?: http.Server;
  private port = 0;
  private waiters: Array<() => void> = [];
  private readonly hanging = new Set<http.ServerResponse>();
  private verify?: (request: ReceivedWebhook) => boolean;

  /** From now on, a request `verify` refuses is answered 401, as a receiver checking signatures would (its script is kept for the others). */
  verifyWith(verify: (request: ReceivedWebhook) => boolean): void {
    this.verify = verify;
  }

  async listen(): Promise<string> {
    this.server = http.createServer((request, response) => this.handle(request, response));
    this.port = await listenOnLoopback(this.server, this.port);
    return this.url();
  }

  url(path = '/hooks'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  answer(...answers: ReceiverAnswer[]): void {
    this.script.push(...answers);
  }

  /** Resolves once `count` requests have arrived in all. */
  async waitFor(count: number, timeoutMs = 30_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} webhook requests, got ${this.received.length}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return this.received.slice(0, count);
  }

  /** Stops listening: connections are refused until listen() again. */
  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.hanging.clear();
    const server = this.server;
    this.server = undefined;
    if (server) await closeNow(server);
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    onBody(request, (body) => {
      const received = { headers: request.headers, body, path: request.url ?? '' };
      this.received.push(received);
      this.waiters.splice(0).forEach((wake) => wake());
      if (this.verify && !this.verify(received)) {
        response.writeHead(401).end();
        return;
      }
      const answer = this.script.shift() ?? { status: 200 };
      if (answer === 'hang') {
        this.hanging.add(response);
        return;
      }
      response.writeHead(answer.status, answer.headers).end();
    });
  }
}

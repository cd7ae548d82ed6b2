import * as http from 'node:http';
import { closeNow, listenOnLoopback, onBody } from './loopback-server';
import { chatCompletionBody } from './remote-provider-env';

/**
 * A stand-in for an OpenAI-compatible provider that holds each request until the test releases
 * it, so a task can be caught mid-flight.
 */
export class HeldProvider {
  readonly server = http.createServer((req, res) => this.onRequest(req, res));
  requests = 0;
  /** Each request's body, in the order they came. */
  readonly bodies: string[] = [];
  private held: http.ServerResponse[] = [];
  private holding = true;
  private arrivals: Array<() => void> = [];

  async listen(): Promise<string> {
    return `http://127.0.0.1:${await listenOnLoopback(this.server)}/v1`;
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

  close(): Promise<void> {
    return closeNow(this.server);
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    onBody(req, (body) => {
      this.requests++;
      this.bodies.push(body);
      this.arrivals.shift()?.();
      if (this.holding) this.held.push(res);
      else answer(res);
    });
  }
}

function answer(res: http.ServerResponse): void {
  if (res.destroyed) return;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(chatCompletionBody('The provider summary.'));
}

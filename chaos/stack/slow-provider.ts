import * as http from 'node:http';
import { closeNow, listenOnLoopback, onBody } from '../../test/support/loopback-server';
import { chatCompletionBody } from '../../test/support/remote-provider-env';

export interface DelayRange {
  minMs: number;
  maxMs: number;
}

/**
 * An OpenAI-compatible chat-completions endpoint that answers after a random delay, so a
 * scenario can kill a process while summaries are in flight. It counts calls per text, which
 * shows how often a crash made a worker call the provider again for the same task.
 */
export class SlowProvider {
  private readonly server = http.createServer((req, res) => this.onRequest(req, res));
  private readonly callsByText = new Map<string, number>();
  private inFlightCount = 0;

  /** `delay` for every call; a model named in `delayByModel` (the request's `model`) answers after its own. */
  constructor(
    private readonly delay: DelayRange,
    private readonly delayByModel: Readonly<Record<string, DelayRange>> = {},
  ) {}

  async listen(): Promise<string> {
    return `http://127.0.0.1:${await listenOnLoopback(this.server)}/v1`;
  }

  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Calls beyond the first for the same text: work a crash made the workers redo. */
  get repeatedCalls(): number {
    let repeated = 0;
    for (const calls of this.callsByText.values()) repeated += calls - 1;
    return repeated;
  }

  close(): Promise<void> {
    return closeNow(this.server);
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    onBody(req, (body) => {
      const { text, model } = readRequest(body);
      this.callsByText.set(text, (this.callsByText.get(text) ?? 0) + 1);
      this.inFlightCount++;
      const delay = (model === undefined ? undefined : this.delayByModel[model]) ?? this.delay;
      const wait = delay.minMs + Math.random() * (delay.maxMs - delay.minMs);
      setTimeout(() => {
        this.inFlightCount--;
        if (res.destroyed) return;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(chatCompletionBody(`Summary of ${text.slice(0, 60)}`));
      }, wait);
    });
  }
}

function readRequest(body: string): { text: string; model?: string } {
  try {
    const request = JSON.parse(body) as { model?: string; messages?: Array<{ role?: string; content?: string }> };
    return { text: request.messages?.find((message) => message.role === 'user')?.content ?? body, model: request.model };
  } catch {
    return { text: body };
  }
}

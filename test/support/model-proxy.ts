import { createHash } from 'node:crypto';
import * as http from 'node:http';
import { closeNow, listenOnLoopback } from './loopback-server';

const BASE_PATH = '/v1';
const CHAT_COMPLETIONS = `${BASE_PATH}/chat/completions`;
// Connection-level headers belong to each hop, not to the request or answer passed on.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

/** One POST /v1/chat/completions as the proxy saw it. */
export interface ChatCall {
  /** When its body had arrived (ms since the epoch). */
  startedAt: number;
  /** When its answer ended, or the client went away. */
  endedAt?: number;
  /** The status the client was answered with; unset when the client left before any answer. */
  status?: number;
  /** The client went away before the whole answer had been sent; the upstream request was aborted. */
  abandoned?: boolean;
  /** Why the provider's connection failed (ECONNREFUSED: down, answered 502; ECONNRESET: died mid-request, client cut off). */
  upstreamError?: string;
  /** sha256 (hex) of `userContent`: what tells one chunk's call from another's in a log or an assertion. */
  bodyHash: string;
  /** The content of the request's last message with role "user" ('' when there is none). */
  userContent: string;
}

interface Disturbance {
  status: 429 | 503;
  retryAfterSeconds: number;
}

/**
 * A loopback HTTP proxy in front of an OpenAI-compatible provider (the model server), for tests to
 * watch and disturb the calls the workers make: how many run at once, which texts were sent how
 * often, and provider answers a real model never gives on cue (429, 503, down). Every request goes
 * through unchanged and its answer streams back; a client that goes away (its worker was killed)
 * aborts the upstream request, as a provider sees a dropped connection.
 */
export class ModelProxy {
  readonly baseUrl: string;
  /** Every chat completion, in arrival order. */
  readonly calls: ChatCall[] = [];
  private current = 0;
  private highest = 0;
  private disturbances: Disturbance[] = [];
  private readonly upstreamRequests = new Set<http.ClientRequest>();

  private constructor(
    private readonly server: http.Server,
    private readonly upstream: URL,
    port: number,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}${BASE_PATH}`;
  }

  /** `upstreamBaseUrl` is the provider's base URL, e.g. ModelServer's `http://127.0.0.1:<port>/v1`. */
  static async start(upstreamBaseUrl: string): Promise<ModelProxy> {
    const server = http.createServer();
    const port = await listenOnLoopback(server);
    const proxy = new ModelProxy(server, new URL(upstreamBaseUrl), port);
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => proxy.onRequest(req, res));
    return proxy;
  }

  /** Requests received and not yet answered in full (nor abandoned by their client). */
  get inFlight(): number {
    return this.current;
  }

  /** The most requests in flight at once since the start or the last resetCounts(). */
  get maxInFlight(): number {
    return this.highest;
  }

  /** Forgets the calls seen so far and starts the maximum afresh from those in flight now. */
  resetCounts(): void {
    this.calls.length = 0;
    this.highest = this.current;
  }

  /** How many chat completions each user content was sent in. */
  callsByContent(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const call of this.calls) counts.set(call.userContent, (counts.get(call.userContent) ?? 0) + 1);
    return counts;
  }

  /** The next `count` chat completions are answered 429 with Retry-After at once, without reaching the provider. */
  answer429For(count: number, retryAfterSeconds: number): void {
    this.disturb({ status: 429, retryAfterSeconds }, count);
  }

  /** The next `count` chat completions are answered 503 with Retry-After at once, without reaching the provider. */
  answer503For(count: number, retryAfterSeconds: number): void {
    this.disturb({ status: 503, retryAfterSeconds }, count);
  }

  async close(): Promise<void> {
    for (const request of this.upstreamRequests) request.destroy();
    await closeNow(this.server);
  }

  private disturb(disturbance: Disturbance, count: number): void {
    for (let i = 0; i < count; i++) this.disturbances.push(disturbance);
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.current++;
    this.highest = Math.max(this.highest, this.current);
    let call: ChatCall | undefined;
    res.once('close', () => {
      this.current--;
      if (!call) return;
      call.endedAt = Date.now();
      if (!res.writableFinished && call.upstreamError === undefined) call.abandoned = true;
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (res.destroyed) return;
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && pathOf(req.url) === CHAT_COMPLETIONS) {
        const userContent = lastUserContent(body);
        call = { startedAt: Date.now(), bodyHash: createHash('sha256').update(userContent).digest('hex'), userContent };
        this.calls.push(call);
        const disturbance = this.disturbances.shift();
        if (disturbance) return answerDisturbed(res, call, disturbance);
      }
      this.forward(req, body, res, call);
    });
  }

  private forward(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, call: ChatCall | undefined): void {
    const target = new URL(this.upstreamPath(req.url ?? '/'), this.upstream.origin);
    const upstreamRequest = http.request(target, {
      method: req.method,
      headers: { ...withoutHopByHop(req.headers), host: target.host, 'content-length': String(body.length) },
      // A fresh connection per request: a kept-alive one to a provider that was killed and
      // restarted meanwhile would fail the next request with a reset instead of reaching it.
      agent: false,
    });
    this.upstreamRequests.add(upstreamRequest);
    upstreamRequest.once('close', () => this.upstreamRequests.delete(upstreamRequest));
    // The client went away before the whole answer: the provider sees its connection dropped.
    res.once('close', () => {
      if (!res.writableFinished) upstreamRequest.destroy();
    });
    upstreamRequest.on('response', (upstreamResponse) => {
      const status = upstreamResponse.statusCode ?? 502;
      if (call) call.status = status;
      res.writeHead(status, withoutHopByHop(upstreamResponse.headers));
      upstreamResponse.pipe(res);
      // The provider died mid-answer: the client sees its connection cut, as it would without us.
      upstreamResponse.on('error', () => res.destroy());
      upstreamResponse.once('close', () => {
        if (upstreamResponse.complete) return;
        if (call && !res.destroyed) call.upstreamError ??= 'ECONNRESET';
        res.destroy();
      });
    });
    upstreamRequest.on('error', (error: NodeJS.ErrnoException) => {
      if (res.destroyed || res.writableFinished) return;
      if (call) call.upstreamError = error.code ?? error.message;
      // Nothing listens (the model server is down): a gateway's 502.
      if (error.code === 'ECONNREFUSED' && !res.headersSent) {
        if (call) call.status = 502;
        answerJson(res, 502, {}, { error: { message: `the model server could not be reached: ${error.code}`, type: 'bad_gateway', param: null, code: null } });
        return;
      }
      // It died mid-request (a non-streamed answer has no headers until its end): the client sees
      // its connection cut, as it would without the proxy.
      res.destroy();
    });
    upstreamRequest.end(body);
  }

  /** The proxy's /v1/... is the upstream's base path + ...; other paths (the server's /extras) pass as they are. */
  private upstreamPath(url: string): string {
    if (url !== BASE_PATH && !url.startsWith(`${BASE_PATH}/`) && !url.startsWith(`${BASE_PATH}?`)) return url;
    return `${this.upstream.pathname.replace(/\/$/, '')}${url.slice(BASE_PATH.length)}`;
  }
}

function answerDisturbed(res: http.ServerResponse, call: ChatCall, { status, retryAfterSeconds }: Disturbance): void {
  call.status = status;
  // What OpenAI's API sends for each.
  const error =
    status === 429
      ? { message: 'Rate limit reached for requests. Please try again later.', type: 'requests', param: null, code: 'rate_limit_exceeded' }
      : { message: 'The server is overloaded or not ready yet.', type: 'server_error', param: null, code: null };
  answerJson(res, status, { 'retry-after': String(retryAfterSeconds) }, { error });
}

function answerJson(res: http.ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0];
}

function withoutHopByHop(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

/** The last "user" message's content; OpenAI's content may also be a list of parts, whose texts are joined. */
function lastUserContent(body: Buffer): string {
  let messages: unknown;
  try {
    messages = (JSON.parse(body.toString('utf8')) as { messages?: unknown }).messages;
  } catch {
    return '';
  }
  if (!Array.isArray(messages)) return '';
  const last = messages.filter((message: { role?: unknown }) => message?.role === 'user').pop() as { content?: unknown } | undefined;
  const content = last?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('');
}

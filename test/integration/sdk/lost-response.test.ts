import * as http from 'node:http';
import { AssayClient } from '../../../src/sdk';
import { closeNow, listenOnLoopback, onBody } from '../../support/loopback-server';

type Misbehaviour = 'drop-connection' | 'never-answer';

/**
 * A loopback stand-in for POST /v1/ai/tasks with the service's idempotency: the same key gets the
 * same task. The first request is recorded and then lost: the connection is dropped, or left hanging.
 */
class LossyTaskServer {
  readonly tasksByKey = new Map<string, string>();
  readonly posts: { key: string | undefined; body: unknown }[] = [];
  private readonly server = http.createServer((request, response) => this.handle(request, response));

  constructor(private readonly misbehaviour: Misbehaviour) {}

  async start(): Promise<string> {
    return `http://127.0.0.1:${await listenOnLoopback(this.server)}`;
  }

  stop(): Promise<void> {
    return closeNow(this.server);
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    onBody(request, (body) => {
      const key = request.headers['idempotency-key'] as string | undefined;
      this.posts.push({ key, body: JSON.parse(body) });
      const replayed = key !== undefined && this.tasksByKey.has(key);
      const id = (key && this.tasksByKey.get(key)) ?? `task_${this.tasksByKey.size + 1}`;
      if (key) this.tasksByKey.set(key, id);
      if (this.posts.length === 1) {
        if (this.misbehaviour === 'drop-connection') request.socket.destroy();
        return;
      }
      const now = new Date().toISOString();
      response.writeHead(202, { 'content-type': 'application/json', 'x-request-id': `req_${this.posts.length}`, ...(replayed ? { 'idempotent-replayed': 'true' } : {}) });
      response.end(JSON.stringify({ id, task_type: 'summarize', status: 'queued', created_at: now, updated_at: now }));
    });
  }
}

describe('a create whose response is lost', () => {
  test.each<[Misbehaviour]>([['drop-connection'], ['never-answer']])(
    'is retried under the same Idempotency-Key and creates exactly one task (%s)',
    async (misbehaviour) => {
      const server = new LossyTaskServer(misbehaviour);
      const baseUrl = await server.start();
      try {
        const client = new AssayClient({
          baseUrl,
          apiKey: 'assay_test_abc',
          requestTimeoutMs: 2_000,
          retry: { baseDelayMs: 50, maxDelayMs: 100 },
        });

        const task = await client.createTask({ task_type: 'summarize', input: { text: 'Some text to keep.' } });

        expect(server.posts).toHaveLength(2);
        expect(server.posts[1].key).toBe(server.posts[0].key);
        expect(server.posts[1].body).toEqual(server.posts[0].body);
        expect(server.tasksByKey.size).toBe(1);
        expect(task.id).toBe(server.tasksByKey.get(server.posts[0].key as string));
      } finally {
        await server.stop();
      }
    },
  );
});

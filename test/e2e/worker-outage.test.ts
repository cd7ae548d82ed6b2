import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AssayHarness } from '../support/assay-harness';
import { bearer, http as request } from '../support/http';

/**
 * A stand-in for an OpenAI-compatible provider that holds each request until the test releases
 * it, so a task can be caught mid-flight.
 */
class HeldProvider {
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

let harness: AssayHarness;
let provider: HeldProvider;
let key: string;

beforeAll(async () => {
  provider = new HeldProvider();
  const baseUrl = await provider.listen();
  harness = await AssayHarness.start({ worker: false, env: { SUMMARIZER_PROVIDER: 'openai-compatible', OPENAI_BASE_URL: baseUrl } });
  key = (await harness.issueKey('acme', 'test')).key;
});

afterAll(async () => {
  await harness?.stop();
  await provider?.close();
});

async function getTask(id: string) {
  return request(`${harness.baseUrl}/v1/ai/tasks/${id}`, { headers: bearer(key) });
}

describe('GET while no worker runs', () => {
  it('answers queued, fast and without a 5xx, for as long as no worker runs', async () => {
    const created = await request(`${harness.baseUrl}/v1/ai/tasks`, {
      method: 'POST',
      headers: bearer(key),
      json: { task_type: 'summarize', input: { text: 'Nobody is working on this yet. It should wait.' } },
    });
    expect(created.status).toBe(202);
    for (let i = 0; i < 5; i++) {
      const polled = await getTask(created.body.id);
      expect(polled.status).toBe(200);
      expect(polled.body.status).toBe('queued');
    }
  });
});

describe('a worker restart in the middle of a task', () => {
  it('finishes the task on the next worker, and a finished task still answers with no worker', async () => {
    const created = await request(`${harness.baseUrl}/v1/ai/tasks`, {
      method: 'POST',
      headers: bearer(key),
      json: { task_type: 'summarize', input: { text: 'A task that outlives its first worker. It must still finish.' } },
    });
    const firstAttempt = provider.nextRequest();
    await harness.startWorker();
    await firstAttempt;
    expect((await getTask(created.body.id)).body.status).toBe('running');

    await harness.stopWorker();
    expect((await getTask(created.body.id)).body.status).toBe('running');

    provider.release();
    await harness.startWorker();
    let final: any;
    for (let i = 0; i < 240 && !final; i++) {
      const polled = await getTask(created.body.id);
      expect(polled.status).toBe(200);
      if (polled.body.status === 'succeeded' || polled.body.status === 'failed') final = polled.body;
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(final).toMatchObject({ status: 'succeeded', output: { summary: 'The provider summary.' } });
    expect(provider.requests).toBeGreaterThanOrEqual(2);

    await harness.stopWorker();
    const afterwards = await getTask(created.body.id);
    expect(afterwards.body).toMatchObject({ status: 'succeeded', output: { summary: 'The provider summary.' } });
  });
});

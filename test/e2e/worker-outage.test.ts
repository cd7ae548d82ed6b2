import { AssayHarness } from '../support/assay-harness';
import { HeldProvider } from '../support/held-provider';
import { bearer, http as request } from '../support/http';

const provider = new HeldProvider();
let harness: AssayHarness;
let key: string;

beforeAll(async () => {
  harness = await AssayHarness.start({ worker: 'later', provider });
  key = (await harness.issueKey('acme', 'test')).key;
});

afterAll(async () => {
  await harness?.stop();
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

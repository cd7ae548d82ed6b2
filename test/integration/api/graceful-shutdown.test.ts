import { Client, Connection } from '@temporalio/client';
import { taskWorkflowId } from '../../../src/contract';
import { AssayHarness } from '../../support/assay-harness';
import { BuiltService } from '../../support/built-service';
import { freePort } from '../../../src/embedded/free-port';
import { HeldProvider } from '../../support/held-provider';
import { bearer, http } from '../../support/http';
import { remoteProviderEnv } from '../../support/remote-provider-env';
import { SUMMARIZE_TASK } from '../../support/tasks';

const ORG = 'acme';
const WORKER_READY = /"msg":"worker ready"/;
// The SDK's own log line once a worker has stopped polling for new work.
const WORKER_STOPPING = /"state":"STOPPING","msg":"Worker state changed"/;
// One "worker ready" line per environment namespace.
const NAMESPACES = 2;

let provider: HeldProvider;
let providerUrl: string;
// The API names the provider's model in each task it creates, so it has the workers' provider
// settings too; it never calls the provider, whose address (a new one per test) it needs not know.
const API_PROVIDER_ENV = remoteProviderEnv('http://127.0.0.1:9/v1');
let started: BuiltService[] = [];

beforeEach(async () => {
  provider = new HeldProvider();
  providerUrl = await provider.listen();
});

afterEach(async () => {
  await Promise.all(started.map((service) => service.kill()));
  started = [];
  await provider.close();
});

/** A spawned API's or worker's settings: the harness's Temporal, queue and key store, and the held provider. */
function serviceEnv(harness: AssayHarness, extra: Record<string, string> = {}): Record<string, string> {
  return { ...harness.sharedEnv(), LOG_LEVEL: 'info', ...remoteProviderEnv(providerUrl), WORKER_METRICS_PORT: '0', ...extra };
}

async function spawnService(name: 'api' | 'worker', env: Record<string, string>, ready: RegExp, count = 1): Promise<BuiltService> {
  const service = await BuiltService.start(name, env, ready, count);
  started.push(service);
  return service;
}

async function createTask(baseUrl: string, key: string): Promise<string> {
  const response = await http(`${baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: SUMMARIZE_TASK });
  expect(response.status).toBe(202);
  return response.body.id;
}

async function waitForProviderRequests(count: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (provider.requests < count) {
    if (Date.now() > deadline) throw new Error(`the provider saw ${provider.requests} requests, expected ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function waitUntilFinal(baseUrl: string, key: string, taskIds: string[], timeoutMs = 45_000): Promise<Record<string, string>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const tasks = await Promise.all(taskIds.map((id) => http(`${baseUrl}/v1/ai/tasks/${id}`, { headers: bearer(key) })));
    const statuses = Object.fromEntries(tasks.map((task, index) => [taskIds[index], task.body.status as string]));
    if (Object.values(statuses).every((status) => status === 'succeeded' || status === 'failed')) return statuses;
    if (Date.now() > deadline) throw new Error(`tasks not final in time: ${JSON.stringify(statuses)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface ActivityRecord {
  completions: number;
  /** The attempt the history records as started (Temporal writes only the last one) and the worker (pid@host) that ran it. */
  started: Array<{ attempt: number; identity: string }>;
}

/** How often the task's summarize activity completed, and which attempt on which worker did it, from the workflow history. */
async function activityRecord(client: Client, taskId: string): Promise<ActivityRecord> {
  const history = await client.workflow.getHandle(taskWorkflowId(ORG, taskId)).fetchHistory();
  const events = history.events ?? [];
  return {
    completions: events.filter((event) => event.activityTaskCompletedEventAttributes).length,
    started: events.flatMap((event) => {
      const started = event.activityTaskStartedEventAttributes;
      return started ? [{ attempt: started.attempt ?? 1, identity: started.identity ?? '' }] : [];
    }),
  };
}

function ranOn(worker: BuiltService, attempt = 1) {
  return [{ attempt, identity: expect.stringMatching(new RegExp(`^${worker.pid}@`)) }];
}

async function refusesConnections(url: string, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const refused = await fetch(url).then(
      () => false,
      (error: { cause?: { code?: string } }) => error.cause?.code === 'ECONNREFUSED',
    );
    if (refused) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('API graceful shutdown', () => {
  let harness: AssayHarness;

  beforeAll(async () => {
    harness = await AssayHarness.start({ worker: false, env: API_PROVIDER_ENV });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it('finishes a request in flight after SIGTERM and refuses new connections meanwhile', async () => {
    const { key } = await harness.issueKey(ORG, 'test');
    await spawnService('worker', serviceEnv(harness), WORKER_READY, NAMESPACES);
    const port = await freePort();
    const api = await spawnService('api', serviceEnv(harness, { PORT: String(port), HOST: '127.0.0.1' }), /listening on/);
    const apiUrl = `http://127.0.0.1:${port}`;

    const arrived = provider.nextRequest();
    const inFlight = http(`${apiUrl}/v1/ai/tasks`, { method: 'POST', headers: { ...bearer(key), prefer: 'wait=30' }, json: SUMMARIZE_TASK });
    await arrived;

    api.signal('SIGTERM');
    expect(await refusesConnections(`${apiUrl}/healthz`)).toBe(true);
    expect(api.alive).toBe(true);

    provider.release();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'succeeded', output: { summary: 'The provider summary.' } });
    const exit = await api.exited;
    expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    expect(api.log).not.toMatch(/"level":"(fatal|error)"/);
  });
});

describe('worker rolling restart', () => {
  let harness: AssayHarness;
  let client: Client;
  let connection: Connection;
  let key: string;

  beforeAll(async () => {
    harness = await AssayHarness.start({ worker: false, env: API_PROVIDER_ENV });
    connection = await Connection.connect({ address: harness.temporal.address });
    client = new Client({ connection, namespace: harness.config.values.TEMPORAL_NAMESPACE_SANDBOX });
    key = (await harness.issueKey(ORG, 'test')).key;
  });

  afterAll(async () => {
    await connection?.close();
    await harness?.stop();
  });

  it('lets the old worker finish its running tasks while the new one takes the next, each task done exactly once', async () => {
    // A grace no loaded machine outlasts: the test releases worker A's held tasks only after worker B has taken the next two.
    const workerA = await spawnService('worker', serviceEnv(harness, { WORKER_SHUTDOWN_GRACE_MS: '120000' }), WORKER_READY, NAMESPACES);
    const before = [await createTask(harness.baseUrl, key), await createTask(harness.baseUrl, key), await createTask(harness.baseUrl, key)];
    await waitForProviderRequests(before.length);

    const workerB = await spawnService('worker', serviceEnv(harness), WORKER_READY, NAMESPACES);
    workerA.signal('SIGTERM');
    await workerA.waitFor(WORKER_STOPPING, NAMESPACES, 10_000);
    const after = [await createTask(harness.baseUrl, key), await createTask(harness.baseUrl, key)];
    await waitForProviderRequests(before.length + after.length);
    provider.release();

    const statuses = await waitUntilFinal(harness.baseUrl, key, [...before, ...after]);
    expect(Object.values(statuses)).toEqual(Array(5).fill('succeeded'));
    const exitA = await workerA.exited;
    expect(exitA.code === 0 || exitA.signal === 'SIGTERM').toBe(true);
    expect(provider.requests).toBe(5);

    for (const taskId of before) expect(await activityRecord(client, taskId)).toEqual({ completions: 1, started: ranOn(workerA) });
    for (const taskId of after) expect(await activityRecord(client, taskId)).toEqual({ completions: 1, started: ranOn(workerB) });
    expect(workerB.alive).toBe(true);
  });

  it('hands running tasks back when they outlast the grace period, and another worker completes them once', async () => {
    const workerA = await spawnService('worker', serviceEnv(harness, { WORKER_SHUTDOWN_GRACE_MS: '1000' }), WORKER_READY, NAMESPACES);
    const tasks = [await createTask(harness.baseUrl, key), await createTask(harness.baseUrl, key)];
    await waitForProviderRequests(tasks.length);

    const workerB = await spawnService('worker', serviceEnv(harness), WORKER_READY, NAMESPACES);
    workerA.signal('SIGTERM');
    const exitA = await workerA.exited;
    expect(exitA.code === 0 || exitA.signal === 'SIGTERM').toBe(true);

    // Worker A's attempts were canceled and reported failed; the server retries them on worker B.
    await waitForProviderRequests(tasks.length * 2);
    provider.release();

    const statuses = await waitUntilFinal(harness.baseUrl, key, tasks);
    expect(Object.values(statuses)).toEqual(['succeeded', 'succeeded']);
    for (const taskId of tasks) {
      expect(await activityRecord(client, taskId)).toEqual({ completions: 1, started: ranOn(workerB, 2) });
    }
  });
});

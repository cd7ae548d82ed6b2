import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import type { TLSConfig } from '@temporalio/common/lib/internal-non-workflow';
import { builtEntrypoints } from '../../chaos/stack/built-entrypoints';
import { CLUSTER_NAMESPACES, WORKERS } from '../../src/cluster/cluster';
import { configSchema } from '../../src/common/config/app-config';
import { taskWorkflowId } from '../../src/contract';
import { verifyWebhook } from '../../src/sdk';
import { ClusterStack } from '../support/cluster-stack';
import { eventually } from '../support/eventually';
import { TINY_GRAPH } from '../support/graphs';
import { HeldProvider } from '../support/held-provider';
import { bearer, http } from '../support/http';
import { remoteProviderEnv } from '../support/remote-provider-env';
import { SUMMARIZE_TASK } from '../support/tasks';
import { WebhookReceiver } from '../support/webhook-receiver';

const run = promisify(execFile);

// Every key may create this many tasks at once, and gets one more a minute: the rate-limit test
// spends one key's burst across both instances; the other tests stay below it.
const BURST = 20;
const REVOCATION_DEADLINE_MS = 5_000;
const FINAL_TIMEOUT_MS = 60_000;

const provider = new HeldProvider();
let stack: ClusterStack;
let apis: string[];
let orgCount = 0;

beforeAll(async () => {
  const providerUrl = await provider.listen();
  provider.release();
  stack = await ClusterStack.start({
    label: 'public-api',
    serviceEnv: {
      ...remoteProviderEnv(providerUrl),
      RATE_LIMIT_CREATES_BURST: String(BURST),
      RATE_LIMIT_CREATES_PER_MINUTE: '1',
      // The shared limit as a ceiling: an organisation alone would otherwise be lent the idle capacity.
      ADMISSION_ALONE_IN_FLIGHT: '0',
      // The production default, to show it keeps revocation within the 5 s promise.
      KEY_CACHE_TTL_MS: '2000',
      WEBHOOKS_ALLOW_INSECURE_SANDBOX: 'true',
      WEBHOOK_RETRY_INITIAL_INTERVAL: '200ms',
    },
  });
  apis = stack.cluster.apiUrls;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await provider.close();
});

/** Runs the `assay` CLI against the cluster with cluster.env's settings, as an operator would. */
async function assay(...args: string[]): Promise<string> {
  return assayWith({}, ...args);
}

/** The same, with settings of the person at the shell added (a reviewer's credential and the API's address). */
async function assayWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [builtEntrypoints().cli, ...args], { env: { ...stack.cliEnv(), ...env } });
  return stdout;
}

/** A key of a new organisation (so no other test's work shows), issued with `assay keys issue`. */
async function newKey(env: 'test' | 'live' = 'test', org = `org${++orgCount}`): Promise<{ id: string; key: string; org: string }> {
  return { ...JSON.parse(await assay('keys', 'issue', '--org', org, '--env', env, '--json')), org };
}

function createTask(api: string, key: string, headers: Record<string, string> = {}) {
  return http(`${api}/v1/ai/tasks`, { method: 'POST', headers: { ...bearer(key), ...headers }, json: SUMMARIZE_TASK });
}

async function finalTask(api: string, key: string, id: string): Promise<any> {
  const { body } = await eventually(
    () => http(`${api}/v1/ai/tasks/${id}`, { headers: bearer(key) }),
    (response) => ['succeeded', 'failed'].includes(response.body.status),
    `task ${id} final`,
    FINAL_TIMEOUT_MS,
  );
  return body;
}

/** Visibility on PostgreSQL follows the workflows a moment later: reads the list until `done` holds. */
async function listUntil(url: string, key: string, done: (data: any[]) => boolean): Promise<any> {
  const { body } = await eventually(() => http(url, { headers: bearer(key) }), (response) => response.status === 200 && done(response.body.data), `list ${url}`);
  return body;
}

describe("the cluster's workers", () => {
  it('serve each namespace with its own workflow-task slots', () => {
    const slots = configSchema.parse({});
    const ready = WORKERS.flatMap((worker) =>
      fs
        .readFileSync(path.join(stack.dir, 'logs', `${worker}.log`), 'utf8')
        .split('\n')
        .filter((line) => line.includes('"worker ready"'))
        .map((line) => JSON.parse(line))
        .map(({ namespace, slots }) => ({ worker, namespace, slots })),
    );
    const expected = WORKERS.flatMap((worker) => [
      { worker, namespace: CLUSTER_NAMESPACES.sandbox, slots: slots.WORKER_SLOTS_SANDBOX },
      { worker, namespace: CLUSTER_NAMESPACES.production, slots: slots.WORKER_SLOTS_PRODUCTION },
    ]);
    expect(ready).toEqual(expect.arrayContaining(expected));
    expect(ready).toHaveLength(expected.length);
  });
});

describe('tasks through both API instances', () => {
  it('a task created on one instance is polled to success on the other', async () => {
    const { key } = await newKey();
    const created = await createTask(apis[0], key);
    expect(created.status).toBe(202);
    expect(await finalTask(apis[1], key, created.body.id)).toMatchObject({ id: created.body.id, status: 'succeeded', output: { summary: 'The provider summary.' } });
  });

  it('lists tasks with every filter on PostgreSQL visibility, and pages them', async () => {
    const { key } = await newKey();
    const other = await newKey();
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) ids.push((await createTask(apis[index % 2], key)).body.id);
    await createTask(apis[0], other.key);
    await Promise.all(ids.map((id) => finalTask(apis[0], key, id)));

    const all = await listUntil(`${apis[1]}/v1/ai/tasks?status=succeeded&limit=100`, key, (data) => data.length === 3);
    expect(all.data.map((task: any) => task.id).sort()).toEqual([...ids].sort());
    expect((await http(`${apis[0]}/v1/ai/tasks?status=failed`, { headers: bearer(key) })).body.data).toEqual([]);
    expect((await http(`${apis[0]}/v1/ai/tasks?status=running`, { headers: bearer(key) })).body.data).toEqual([]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const past = new Date(Date.now() - 3_600_000).toISOString();
    expect((await http(`${apis[0]}/v1/ai/tasks?created_after=${future}`, { headers: bearer(key) })).body.data).toEqual([]);
    expect((await http(`${apis[0]}/v1/ai/tasks?created_before=${past}`, { headers: bearer(key) })).body.data).toEqual([]);
    expect((await http(`${apis[0]}/v1/ai/tasks?created_after=${past}&created_before=${future}&limit=100`, { headers: bearer(key) })).body.data).toHaveLength(3);

    const seen: string[] = [];
    let page = (await http(`${apis[0]}/v1/ai/tasks?limit=2`, { headers: bearer(key) })).body;
    seen.push(...page.data.map((task: any) => task.id));
    expect(page.has_more).toBe(true);
    page = (await http(`${apis[1]}/v1/ai/tasks?limit=2&cursor=${encodeURIComponent(page.next_cursor)}`, { headers: bearer(key) })).body;
    seen.push(...page.data.map((task: any) => task.id));
    expect(page.has_more).toBe(false);
    expect(seen.sort()).toEqual([...ids].sort());
  });

  it('cancels a running task, which ends failed with CANCELED', async () => {
    const { key } = await newKey();
    provider.hold();
    try {
      const arrived = provider.nextRequest();
      const created = await createTask(apis[0], key);
      await arrived;
      const cancel = await http(`${apis[1]}/v1/ai/tasks/${created.body.id}/cancel`, { method: 'POST', headers: bearer(key) });
      expect(cancel.status).toBe(202);
      expect(await finalTask(apis[0], key, created.body.id)).toMatchObject({ status: 'failed', error: { code: 'CANCELED' } });
    } finally {
      provider.release();
    }
  });

  it('answers Prefer: wait with the final task when it finishes in time', async () => {
    const { key } = await newKey();
    const response = await createTask(apis[1], key, { prefer: 'wait=10' });
    expect(response.status).toBe(200);
    expect(response.headers.get('preference-applied')).toBe('wait=10');
    expect(response.body).toMatchObject({ status: 'succeeded', output: { summary: 'The provider summary.' } });
  });
});

describe('an assessment', () => {
  it('is checked, listed by status, claimed and completed with the reviewer CLI', async () => {
    const { key } = await newKey();
    const created = await http(`${apis[0]}/v1/network-assessments`, { method: 'POST', headers: bearer(key), json: { name: 'Tiny', context: 'two boxes', ...TINY_GRAPH } });
    expect(created.status).toBe(202);
    const id = created.body.assessment_id;
    const url = (api: string) => `${api}/v1/network-assessments/${id}`;
    await eventually(() => http(url(apis[1]), { headers: bearer(key) }), (response) => Array.isArray(response.body.findings), 'the findings of its checks');
    const submitted = await listUntil(`${apis[1]}/v1/network-assessments?status=submitted`, key, (data) => data.length === 1);
    expect(submitted.data[0].assessment_id).toBe(id);

    const { credential } = JSON.parse(await assay('reviewers', 'add', 'ops-architect', '--env', 'test', '--json')) as { credential: string };
    const reviewer = (api: string) => ({ ASSAY_BASE_URL: api, ASSAY_REVIEWER_CREDENTIAL: credential });
    await assayWith(reviewer(apis[0]), 'assessments', 'claim', id, '--json');
    await assayWith(reviewer(apis[1]), 'assessments', 'complete', id, '--verdict', 'approved', '--notes', 'Fine for a tiny graph.', '--json');
    const completed = await http(url(apis[0]), { headers: bearer(key) });
    expect(completed.body).toMatchObject({ status: 'completed', findings: expect.any(Array), review: { verdict: 'approved', reviewer: 'ops-architect' } });
    const listed = await listUntil(`${apis[0]}/v1/network-assessments?status=completed`, key, (data) => data.length === 1);
    expect(listed.data[0].assessment_id).toBe(id);
  });
});

describe('webhooks', () => {
  it('deliver the completed task exactly as GET returns it, signed', async () => {
    const receiver = new WebhookReceiver();
    await receiver.listen();
    try {
      const { key } = await newKey();
      const registered = await http(`${apis[1]}/v1/webhook-endpoints`, { method: 'POST', headers: bearer(key), json: { url: receiver.url(), events: ['ai_task.completed'] } });
      expect(registered.status).toBe(201);
      const created = await createTask(apis[0], key);
      const [request] = await receiver.waitFor(1);
      const event = await verifyWebhook<any>(request.body, request.headers as Record<string, string>, registered.body.secret, { toleranceSeconds: 300 });
      expect(event.type).toBe('ai_task.completed');
      expect(event.data).toEqual((await http(`${apis[1]}/v1/ai/tasks/${created.body.id}`, { headers: bearer(key) })).body);
    } finally {
      await receiver.close();
    }
  });
});

describe('two API instances are one service', () => {
  it('concurrent duplicates with one Idempotency-Key on both instances make one task', async () => {
    const { key } = await newKey();
    const headers = { 'idempotency-key': 'same-request-on-both-instances' };
    const answers = await Promise.all([0, 1, 0, 1, 0, 1, 0, 1].map((index) => createTask(apis[index], key, headers)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(202));
    const ids = new Set(answers.map((answer) => answer.body.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    const [id] = ids;
    await finalTask(apis[0], key, id);
    const listed = await listUntil(`${apis[1]}/v1/ai/tasks?limit=100`, key, (data) => data.length >= 1);
    expect(listed.data.map((task: any) => task.id)).toEqual([id]);
  });

  it('a revoked key is refused by both instances within 5 s', async () => {
    const issued = await newKey();
    const created = await createTask(apis[0], issued.key);
    const statuses = () => Promise.all(apis.map(async (api) => (await http(`${api}/v1/ai/tasks/${created.body.id}`, { headers: bearer(issued.key) })).status));
    expect(await statuses()).toEqual([200, 200]);
    await assay('keys', 'revoke', issued.id, '--actor', 'ops-oncall');
    const revokedAt = Date.now();
    await eventually(statuses, (answers) => answers.every((status) => status === 401), 'both instances refuse the key', REVOCATION_DEADLINE_MS);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(REVOCATION_DEADLINE_MS);
  });

  it("share one key's create limit between them", async () => {
    const { key } = await newKey();
    const statuses: number[] = [];
    for (let index = 0; index < BURST + 4; index++) statuses.push((await createTask(apis[index % 2], key)).status);
    expect(statuses).toEqual([...Array(BURST).fill(202), 429, 429, 429, 429]);
  });
});

describe('the Temporal UI', () => {
  it("shows a task's workflow history, read through the frontend with the cluster's certificate", async () => {
    const { key, org } = await newKey();
    const created = await createTask(apis[0], key);
    await finalTask(apis[0], key, created.body.id);
    const workflowId = encodeURIComponent(taskWorkflowId(org, created.body.id));
    const history = await http(`${stack.cluster.uiUrl}/api/v1/namespaces/${CLUSTER_NAMESPACES.sandbox}/workflows/${workflowId}/history`);
    expect(history.status).toBe(200);
    const types = history.body.history.events.map((event: { eventType: string }) => event.eventType);
    expect(types[0]).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_STARTED');
    expect(types.at(-1)).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
  });
});

describe('the Temporal frontend', () => {
  /** Whether a client with these TLS settings gets an answer from the frontend. */
  async function answers(tls: TLSConfig): Promise<boolean> {
    try {
      const connection = await Connection.connect({ address: stack.cluster.temporalAddress, tls, connectTimeout: 5_000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return true;
      } finally {
        await connection.close();
      }
    } catch {
      return false;
    }
  }

  it("answers a client with the cluster's certificate and refuses one without it or with another CA's", async () => {
    const { certificates } = stack.cluster;
    const serverOnly: TLSConfig = { serverRootCACertificate: fs.readFileSync(certificates.ca.cert), serverNameOverride: 'localhost' };
    const pair = (paths: { cert: string; key: string }) => ({ crt: fs.readFileSync(paths.cert), key: fs.readFileSync(paths.key) });
    expect(await answers({ ...serverOnly, clientCertPair: pair(certificates.client) })).toBe(true);
    expect(await answers(serverOnly)).toBe(false);
    expect(await answers({ ...serverOnly, clientCertPair: pair(certificates.stranger) })).toBe(false);
  });
});

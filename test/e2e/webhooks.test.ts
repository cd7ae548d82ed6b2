import { Client, Connection } from '@temporalio/client';
import { Webhook } from 'standardwebhooks';
import { AssayClient, verifyWebhook } from '../../src/sdk';
import { assessmentWorkflowId, taskWorkflowId, webhookEventWorkflowId } from '../../src/contract';
import { AssayHarness } from '../support/assay-harness';
import { eventually } from '../support/eventually';
import { TINY_GRAPH } from '../support/graphs';
import { bearer, http } from '../support/http';
import { recordHistoryIfAsked } from '../support/record-history';
import { SANDBOX_NAMESPACE } from '../support/test-temporal';
import { approveAssessment } from '../support/review-assessment';
import { WebhookApi } from '../support/webhook-api';
import { WebhookReceiver } from '../support/webhook-receiver';

// The dev server cannot skip time, so the retry schedule is shortened through the worker's
// configuration (200 ms, up to 1 s between attempts) instead of the 5 s … 10 h of production.
const SHORT_RETRIES = { WEBHOOK_RETRY_INITIAL_INTERVAL: '200ms', WEBHOOK_RETRY_MAX_INTERVAL: '1s', WEBHOOK_RETRY_WINDOW: '2 minutes' };

let harness: AssayHarness;
let api: WebhookApi;
let receiver: WebhookReceiver;
let orgCount = 0;

beforeAll(async () => {
  harness = await AssayHarness.start({ env: SHORT_RETRIES });
  api = new WebhookApi(harness);
});

beforeEach(async () => {
  receiver = new WebhookReceiver();
  await receiver.listen();
});

afterEach(async () => {
  await receiver.close();
});

afterAll(async () => {
  await harness?.stop();
});

/** A fresh organisation per test, so no other test's events reach its endpoints. */
async function newOrg(env: 'test' | 'live' = 'test'): Promise<{ org: string; key: string }> {
  const org = `org${++orgCount}`;
  return { org, key: (await harness.issueKey(org, env)).key };
}

async function registerTaskEndpoint(key: string, url = receiver.url()) {
  const registered = await api.register(key, { url, events: ['ai_task.completed'], description: 'test receiver' });
  expect(registered.status).toBe(201);
  return registered.body as { id: string; secret: string };
}

describe('registering endpoints', () => {
  it('answers 201 with the secret once; GET and list never show it', async () => {
    const { key } = await newOrg();
    const created = await api.register(key, { url: receiver.url(), events: ['ai_task.completed', 'assessment.reviewed'] });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/webhook-endpoints/${created.body.id}`);
    expect(created.body).toMatchObject({ url: receiver.url(), events: ['ai_task.completed', 'assessment.reviewed'], status: 'enabled' });
    expect(created.body.secret).toMatch(/^whsec_/);

    const fetched = await api.get(key, `/v1/webhook-endpoints/${created.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.secret).toBeUndefined();
    const listed = await api.get(key, '/v1/webhook-endpoints');
    expect(listed.body.data).toEqual([fetched.body]);
  });

  it("answers 404 for another organisation's or environment's endpoint, and after DELETE", async () => {
    const owner = await newOrg();
    const other = await newOrg();
    const live = (await harness.issueKey(owner.org, 'live')).key;
    const { id } = await registerTaskEndpoint(owner.key);
    expect((await api.get(other.key, `/v1/webhook-endpoints/${id}`)).status).toBe(404);
    expect((await api.get(live, `/v1/webhook-endpoints/${id}`)).status).toBe(404);
    expect((await http(`${harness.baseUrl}/v1/webhook-endpoints/${id}`, { method: 'DELETE', headers: bearer(other.key) })).status).toBe(404);
    expect((await http(`${harness.baseUrl}/v1/webhook-endpoints/${id}`, { method: 'DELETE', headers: bearer(owner.key) })).status).toBe(204);
    expect((await api.get(owner.key, `/v1/webhook-endpoints/${id}`)).status).toBe(404);
  });

  it.each([
    ['http://127.0.0.1/hook', 'must use https for a live endpoint'],
    ['http://169.254.169.254/latest/meta-data', 'must use https for a live endpoint'],
    ['https://169.254.169.254/latest/meta-data', 'a cloud metadata address'],
    ['https://localhost/hook', 'a loopback address'],
    ['https://10.0.0.7/hook', 'a private address'],
  ])('refuses the live URL %s with a clear 400', async (url, reason) => {
    const { key } = await newOrg('live');
    const refused = await api.register(key, { url, events: ['ai_task.completed'] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('INVALID_REQUEST');
    expect(refused.body.error.message).toContain(reason);
  });

  it('refuses unknown event types and fields', async () => {
    const { key } = await newOrg();
    const refused = await api.register(key, { url: receiver.url(), events: ['task.created'] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^events\.0: /);
    expect((await api.register(key, { url: receiver.url(), events: ['ai_task.completed'], secret: 'mine' })).status).toBe(400);
  });
});

describe('a live key at an API without encryption keys', () => {
  it('is refused a registration, a secret rotation and a test event with 503 ENCRYPTION_REQUIRED, and no endpoint is stored', async () => {
    // Started while no live key of the organisation existed; the key is issued after.
    const keyless = await harness.startApi({ PAYLOAD_ENCRYPTION: 'required' });
    const { key } = await newOrg('live');
    const refused = { status: 503, body: { error: { code: 'ENCRYPTION_REQUIRED' } } };
    const endpoint = { url: 'https://93.184.215.14/hooks', events: ['ai_task.completed'] };
    expect(await http(`${keyless}/v1/webhook-endpoints`, { method: 'POST', headers: bearer(key), json: endpoint })).toMatchObject(refused);
    expect((await api.get(key, '/v1/webhook-endpoints')).body.data).toEqual([]);

    // Registered by the harness's API, told to keep production in plaintext (PAYLOAD_ENCRYPTION=off).
    const { id } = (await api.register(key, endpoint)).body;
    for (const action of ['rotate-secret', 'test']) {
      expect(await http(`${keyless}/v1/webhook-endpoints/${id}/${action}`, { method: 'POST', headers: bearer(key) })).toMatchObject(refused);
    }
  });
});

describe('ai_task.completed', () => {
  it('delivers the task exactly as GET returns it, signed so that the SDK helper verifies it', async () => {
    const { org, key } = await newOrg();
    const endpoint = await registerTaskEndpoint(key);
    const taskId = await api.createTask(key);
    const [request] = await receiver.waitFor(1);

    const event = await verifyWebhook<any>(request.body, request.headers as Record<string, string>, endpoint.secret, { toleranceSeconds: 300 });
    expect(event).toMatchObject({ type: 'ai_task.completed', id: request.headers['webhook-id'] });
    expect(event.id).toMatch(/^evt_/);
    expect(event.data).toEqual((await api.get(key, `/v1/ai/tasks/${taskId}`)).body);
    expect(event.data.status).toBe('succeeded');
    const connection = await Connection.connect({ address: harness.temporal.address });
    try {
      const workflows = new Client({ connection, namespace: SANDBOX_NAMESPACE }).workflow;
      recordHistoryIfAsked(await workflows.getHandle(taskWorkflowId(org, taskId)).fetchHistory(), 'ai-task-succeeded-outcome-event');
      const delivery = workflows.getHandle(webhookEventWorkflowId(org, event.id));
      await delivery.result();
      recordHistoryIfAsked(await delivery.fetchHistory(), 'webhook-event-delivered');
      // Delivered in the organisation's fair share: the event, a child of the task, inherited its fairness key.
      expect((await delivery.describe()).priority).toMatchObject({ fairnessKey: org });
    } finally {
      await connection.close();
    }

    await expect(verifyWebhook(request.body.replace('succeeded', 'failed'), request.headers as Record<string, string>, endpoint.secret)).rejects.toThrow();
    const later = Number(request.headers['webhook-timestamp']) + 301;
    await expect(verifyWebhook(request.body, request.headers as Record<string, string>, endpoint.secret, { nowSeconds: later })).rejects.toThrow('too old');
  });

  it('retries 500, 500, 200 with the same webhook-id and records exactly one success', async () => {
    const { key } = await newOrg();
    receiver.answer({ status: 500 }, { status: 500 });
    const endpoint = await registerTaskEndpoint(key);
    await api.createTask(key);
    const requests = await receiver.waitFor(3);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);

    const deliveries = await api.deliveriesUntil(key, endpoint.id, (rows) => rows.some((row) => row.outcome === 'succeeded'));
    expect(deliveries.map((row) => [row.attempt, row.outcome, row.http_status])).toEqual([
      [3, 'succeeded', 200],
      [2, 'failed', 500],
      [1, 'failed', 500],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received).toHaveLength(3);
  });

  it('delivers after the receiver was down for a stretch of attempts', async () => {
    const { key } = await newOrg();
    const endpoint = await registerTaskEndpoint(key);
    await receiver.close();
    await api.createTask(key);
    await api.deliveriesUntil(key, endpoint.id, (rows) => rows.filter((row) => row.outcome === 'failed').length >= 3);

    await receiver.listen();
    await receiver.waitFor(1);
    const deliveries = await api.deliveriesUntil(key, endpoint.id, (rows) => rows.some((row) => row.outcome === 'succeeded'));
    expect(deliveries.filter((row) => row.outcome === 'succeeded')).toHaveLength(1);
    expect(deliveries.find((row) => row.outcome === 'failed').error).toMatch(/^no answer: /);
  });

  it("honours the receiver's Retry-After", async () => {
    const { key } = await newOrg();
    receiver.answer({ status: 503, headers: { 'retry-after': '1' } });
    const endpoint = await registerTaskEndpoint(key);
    await api.createTask(key);
    const deliveries = await api.deliveriesUntil(key, endpoint.id, (rows) => rows.some((row) => row.outcome === 'succeeded'));
    const [second, first] = deliveries.map((row) => Date.parse(row.attempted_at));
    // Without Retry-After this schedule would try again within 250 ms.
    expect(second - first).toBeGreaterThanOrEqual(1000);
  });

  it('stops and disables the endpoint when the receiver answers 410 Gone', async () => {
    const { key } = await newOrg();
    receiver.answer({ status: 410 });
    const endpoint = await registerTaskEndpoint(key);
    await api.createTask(key);
    await api.deliveriesUntil(key, endpoint.id, (rows) => rows.length === 1);
    const deadline = Date.now() + 10_000;
    let state = await api.get(key, `/v1/webhook-endpoints/${endpoint.id}`);
    while (state.body.status !== 'disabled' && Date.now() < deadline) state = await api.get(key, `/v1/webhook-endpoints/${endpoint.id}`);
    expect(state.body).toMatchObject({ status: 'disabled', disabled_reason: 'The receiver answered 410 Gone' });

    await api.createTask(key);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(receiver.received).toHaveLength(1);
  });

  it('signs with the old and the new secret after a rotation', async () => {
    const { key } = await newOrg();
    const endpoint = await registerTaskEndpoint(key);
    const rotated = await http(`${harness.baseUrl}/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { method: 'POST', headers: bearer(key) });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    await api.createTask(key);
    const [request] = await receiver.waitFor(1);
    const headers = request.headers as Record<string, string>;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    await expect(verifyWebhook(request.body, headers, endpoint.secret)).resolves.toBeDefined();
    await expect(verifyWebhook(request.body, headers, rotated.body.secret)).resolves.toBeDefined();
  });
});

describe('isolation', () => {
  it("never sends an organisation's events to another organisation's endpoints, nor sandbox events to live endpoints", async () => {
    const acme = await newOrg();
    const globex = await newOrg();
    const acmeLive = (await harness.issueKey(acme.org, 'live')).key;
    const acmeEndpoint = await registerTaskEndpoint(acme.key);
    const globexReceiver = new WebhookReceiver();
    await globexReceiver.listen();
    try {
      await registerTaskEndpoint(globex.key, globexReceiver.url());
      // A live endpoint must be https on a public address; this one is never reachable, and must never be tried.
      const liveEndpoint = await api.register(acmeLive, { url: 'https://93.184.215.14/hooks', events: ['ai_task.completed'] });
      expect(liveEndpoint.status).toBe(201);

      await api.createTask(acme.key);
      await api.deliveriesUntil(acme.key, acmeEndpoint.id, (rows) => rows.some((row) => row.outcome === 'succeeded'));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(globexReceiver.received).toHaveLength(0);
      expect((await api.get(acmeLive, `/v1/webhook-endpoints/${liveEndpoint.body.id}/deliveries`)).body.data).toEqual([]);
    } finally {
      await globexReceiver.close();
    }
  });
});

describe('assessment.reviewed', () => {
  it('delivers the completed assessment exactly as GET returns it', async () => {
    const { org, key } = await newOrg();
    const registered = await api.register(key, { url: receiver.url(), events: ['assessment.reviewed'] });
    const created = await http(`${harness.baseUrl}/v1/network-assessments`, {
      method: 'POST',
      headers: bearer(key),
      json: { name: 'Shop', context: 'EU', ...TINY_GRAPH },
    });
    const assessmentId = created.body.assessment_id as string;
    const connection = await Connection.connect({ address: harness.temporal.address });
    try {
      const handle = new Client({ connection, namespace: SANDBOX_NAMESPACE }).workflow.getHandle(assessmentWorkflowId(org, assessmentId));
      // Its checks run in the organisation's fair share: activities inherit the workflow's fairness key.
      expect((await handle.describe()).priority).toMatchObject({ fairnessKey: org });
    } finally {
      await connection.close();
    }
    await approveAssessment(harness.temporal.address, org, assessmentId);
    const [request] = await receiver.waitFor(1);
    const event = await verifyWebhook<any>(request.body, request.headers as Record<string, string>, registered.body.secret);
    expect(event.type).toBe('assessment.reviewed');
    expect(event.data).toEqual((await api.get(key, `/v1/network-assessments/${assessmentId}`)).body);
    expect(event.data.review).toMatchObject({ verdict: 'approved', reviewer: 'alice' });
  });
});

describe('test events, the delivery log, redelivery and re-enabling', () => {
  /** The organisation's SDK client, as the developer console's server side and customers' code call these operations. */
  function sdk(key: string): AssayClient {
    return new AssayClient({ baseUrl: harness.baseUrl, apiKey: key });
  }

  /** Verified with the Standard Webhooks reference library, not with Assay's own code. */
  function verifiedByReference(request: { body: string; headers: Record<string, unknown> }, secret: string): any {
    return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
  }

  it('sends a signed test event to one endpoint alone and logs its attempts with status and error', async () => {
    const { org, key } = await newOrg();
    const endpoint = await registerTaskEndpoint(key);
    const bystander = await registerTaskEndpoint(key, receiver.url('/bystander'));
    receiver.answer({ status: 500 });
    const queued = await sdk(key).webhooks.sendTestEvent(endpoint.id);
    expect(queued).toEqual({ event_id: expect.stringMatching(/^evt_[0-9a-f]{32}$/), endpoint_id: endpoint.id });

    const [failed, delivered] = await receiver.waitFor(2);
    expect([failed.path, delivered.path]).toEqual(['/hooks', '/hooks']);
    expect(delivered.headers['webhook-id']).toBe(queued.event_id);
    const event = verifiedByReference(delivered, endpoint.secret);
    expect(event).toEqual({ id: queued.event_id, type: 'webhook.test', created_at: expect.any(String), data: { endpoint_id: endpoint.id, message: expect.any(String) } });
    expect(() => verifiedByReference({ ...delivered, body: delivered.body.replace('webhook.test', 'webhook.fake') }, endpoint.secret)).toThrow();

    const log = await api.deliveriesUntil(key, endpoint.id, (rows) => rows.some((row) => row.outcome === 'succeeded'));
    expect(log).toEqual([
      expect.objectContaining({ event_id: queued.event_id, event_type: 'webhook.test', attempt: 2, outcome: 'succeeded', http_status: 200 }),
      expect.objectContaining({ event_id: queued.event_id, event_type: 'webhook.test', attempt: 1, outcome: 'failed', http_status: 500, error: 'HTTP 500' }),
    ]);
    expect(await sdk(key).webhooks.deliveries(bystander.id)).toEqual([]);

    const connection = await Connection.connect({ address: harness.temporal.address });
    try {
      const handle = new Client({ connection, namespace: SANDBOX_NAMESPACE }).workflow.getHandle(webhookEventWorkflowId(org, queued.event_id));
      expect(await handle.result()).toEqual({ eventId: queued.event_id, delivered: 1, skipped: 0, failed: 0 });
      recordHistoryIfAsked(await handle.fetchHistory(), 'webhook-event-test');
    } finally {
      await connection.close();
    }
  });

  it('redelivers the event of a logged attempt with the same webhook-id and body, and logs it', async () => {
    const { key } = await newOrg();
    const endpoint = await registerTaskEndpoint(key);
    const taskId = await api.createTask(key);
    const [original] = await receiver.waitFor(1);
    const [attempt] = await api.deliveriesUntil(key, endpoint.id, (rows) => rows.length === 1);

    const queued = await sdk(key).webhooks.redeliver(endpoint.id, attempt.id);
    expect(queued).toEqual({ event_id: attempt.event_id, endpoint_id: endpoint.id });
    const [, again] = await receiver.waitFor(2);
    expect(again.headers['webhook-id']).toBe(original.headers['webhook-id']);
    expect(again.body).toBe(original.body);
    expect(verifiedByReference(again, endpoint.secret)).toMatchObject({ type: 'ai_task.completed', data: { id: taskId, status: 'succeeded' } });
    const log = await api.deliveriesUntil(key, endpoint.id, (rows) => rows.length === 2);
    expect(log.map((row) => [row.event_id, row.outcome])).toEqual([
      [attempt.event_id, 'succeeded'],
      [attempt.event_id, 'succeeded'],
    ]);
  });

  it('re-enables an endpoint disabled after a 410, keeping its secret; test events wait for it', async () => {
    const { key } = await newOrg();
    const endpoint = await registerTaskEndpoint(key);
    receiver.answer({ status: 410 });
    await sdk(key).webhooks.sendTestEvent(endpoint.id);
    const disabled = await eventually(() => sdk(key).webhooks.get(endpoint.id), (state) => state.status === 'disabled', 'the endpoint disabled by the 410');
    expect(disabled.disabled_reason).toBe('The receiver answered 410 Gone');

    const refused = await http(`${harness.baseUrl}/v1/webhook-endpoints/${endpoint.id}/test`, { method: 'POST', headers: bearer(key) });
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'ENDPOINT_DISABLED' } } });

    const enabled = await sdk(key).webhooks.enable(endpoint.id);
    expect(enabled).toMatchObject({ id: endpoint.id, status: 'enabled' });
    expect(enabled).not.toHaveProperty('disabled_reason');
    expect(await sdk(key).webhooks.enable(endpoint.id)).toMatchObject({ status: 'enabled' });
    const queued = await sdk(key).webhooks.sendTestEvent(endpoint.id);
    const [, delivered] = await receiver.waitFor(2);
    expect(verifiedByReference(delivered, endpoint.secret)).toMatchObject({ id: queued.event_id, type: 'webhook.test' });
  });

  it("answers 404 with the error body for an unknown delivery and for another organisation's endpoint", async () => {
    const acme = await newOrg();
    const globex = await newOrg();
    const endpoint = await registerTaskEndpoint(acme.key);
    for (const [path, key] of [
      [`/v1/webhook-endpoints/${endpoint.id}/deliveries/wd_01JAAAAAAAAAAAAAAAAAAAAAAA/redeliver`, acme.key],
      [`/v1/webhook-endpoints/${endpoint.id}/test`, globex.key],
      [`/v1/webhook-endpoints/${endpoint.id}/enable`, globex.key],
    ]) {
      const response = await http(`${harness.baseUrl}${path}`, { method: 'POST', headers: bearer(key) });
      expect(response).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND', request_id: expect.any(String) } } });
    }
  });
});

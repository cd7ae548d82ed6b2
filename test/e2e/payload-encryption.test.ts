import { Client, Connection } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiApp } from '../../src/api/create-api-app';
import { AppConfig } from '../../src/common/config/app-config';
import { generateEncryptionKeyEntry } from '../../src/common/crypto/encryption-keys';
import { taskWorkflowId } from '../../src/contract';
import { AssayClient, verifyWebhook } from '../../src/sdk';
import { AssayHarness } from '../support/assay-harness';
import { eventually } from '../support/eventually';
import { bearer, http } from '../support/http';
import { WebhookReceiver } from '../support/webhook-receiver';

const FIRST_KEY = generateEncryptionKeyEntry('first');
const SECOND_KEY = generateEncryptionKeyEntry('second');

let harness: AssayHarness;
let key: string;
let connection: Connection;
let raw: Client;
const apis: NestFastifyApplication[] = [];

beforeAll(async () => {
  harness = await AssayHarness.start({ env: { PAYLOAD_ENCRYPTION_KEYS: FIRST_KEY } });
  key = (await harness.issueKey('acme', 'test')).key;
  connection = await Connection.connect({ address: harness.temporal.address });
  // No codec: what anyone with the database or the UI without the codec endpoint sees.
  raw = new Client({ connection, namespace: harness.config.values.TEMPORAL_NAMESPACE_SANDBOX });
});

afterAll(async () => {
  await Promise.all(apis.map((api) => api.close()));
  await connection?.close();
  await harness?.stop();
});

/** Another API on the harness's Temporal, task queue and key store, with its own encryption keys (none: as before encryption). */
async function apiWith(keys: string | undefined): Promise<string> {
  const env: Record<string, string> = { ...harness.sharedEnv(), LOG_LEVEL: 'silent' };
  delete env.PAYLOAD_ENCRYPTION_KEYS;
  const api = await createApiApp(new AppConfig({ ...env, ...(keys ? { PAYLOAD_ENCRYPTION_KEYS: keys } : {}) }));
  apis.push(api);
  await api.listen({ port: 0, host: '127.0.0.1' });
  return api.getUrl();
}

async function createTask(baseUrl: string, text: string): Promise<string> {
  const created = await http(`${baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: { task_type: 'summarize', input: { text } } });
  expect(created.status).toBe(202);
  return created.body.id;
}

function finished(baseUrl: string, taskId: string) {
  return eventually(
    () => http(`${baseUrl}/v1/ai/tasks/${taskId}`, { headers: bearer(key) }),
    (response) => response.status === 200 && response.body.status === 'succeeded',
    `task ${taskId} to succeed`,
  );
}

async function storedHistory(taskId: string): Promise<{ bytes: Buffer; payloads: Payload[] }> {
  const workflowId = taskWorkflowId('acme', taskId);
  const history = await raw.workflow.getHandle(workflowId).fetchHistory();
  // The raw call: describe() would decode the memo, which without the codec it cannot.
  const description = await raw.workflowService.describeWorkflowExecution({ namespace: raw.options.namespace, execution: { workflowId } });
  const memo = Object.values(description.workflowExecutionInfo?.memo?.fields ?? {}) as Payload[];
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
  const completed = history.events?.at(-1)?.workflowExecutionCompletedEventAttributes?.result?.payloads ?? [];
  const bytes = Buffer.concat([temporal.api.history.v1.History.encode(history).finish(), temporal.api.common.v1.Memo.encode({ fields: description.workflowExecutionInfo?.memo?.fields }).finish()]);
  return { bytes, payloads: [...started, ...completed, ...memo] as Payload[] };
}

function metadata(payload: Payload, name: string): string {
  return Buffer.from(payload.metadata?.[name] ?? new Uint8Array()).toString('utf8');
}

describe('encryption at rest with webhooks', () => {
  it('signs the event with the secret it stored encrypted, and its data is the decrypted task', async () => {
    const receiver = new WebhookReceiver();
    await receiver.listen();
    try {
      const org = `hooks-${Date.now().toString(36)}`;
      const hookKey = (await harness.issueKey(org, 'test')).key;
      const endpoint = await http(`${harness.baseUrl}/v1/webhook-endpoints`, { method: 'POST', headers: bearer(hookKey), json: { url: receiver.url(), events: ['ai_task.completed'] } });
      expect(endpoint.status).toBe(201);
      const created = await http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(hookKey), json: { task_type: 'summarize', input: { text: 'Signed under encryption. The secret is sealed.' } } });
      const [request] = await receiver.waitFor(1);
      const event = await verifyWebhook<any>(request.body, request.headers as Record<string, string>, endpoint.body.secret, { toleranceSeconds: 300 });
      expect(event.data).toMatchObject({ id: created.body.id, status: 'succeeded', output: { summary: expect.stringContaining('Signed under encryption') } });
    } finally {
      await receiver.close();
    }
  });

  it("signs test events, redeliveries and a re-enabled endpoint's events with the secret it stored encrypted", async () => {
    const receiver = new WebhookReceiver();
    await receiver.listen();
    try {
      const org = `console-hooks-${Date.now().toString(36)}`;
      const sdk = new AssayClient({ baseUrl: harness.baseUrl, apiKey: (await harness.issueKey(org, 'test')).key });
      const endpoint = await sdk.webhooks.create({ url: receiver.url(), events: ['ai_task.completed'] });
      const signedWithSecret = (index: number) => verifyWebhook<any>(receiver.received[index].body, receiver.received[index].headers as Record<string, string>, endpoint.secret, { toleranceSeconds: 300 });

      receiver.answer({ status: 410 });
      const test = await sdk.webhooks.sendTestEvent(endpoint.id);
      await receiver.waitFor(1);
      expect(await signedWithSecret(0)).toMatchObject({ id: test.event_id, type: 'webhook.test' });
      await eventually(() => sdk.webhooks.get(endpoint.id), (state) => state.status === 'disabled', 'the endpoint disabled by the 410');

      expect(await sdk.webhooks.enable(endpoint.id)).toMatchObject({ status: 'enabled' });
      const [attempt] = await eventually(() => sdk.webhooks.deliveries(endpoint.id), (rows) => rows.length === 1, 'the 410 attempt logged');
      const redelivered = await sdk.webhooks.redeliver(endpoint.id, attempt.id);
      await receiver.waitFor(2);
      expect(await signedWithSecret(1)).toMatchObject({ id: redelivered.event_id, type: 'webhook.test' });
    } finally {
      await receiver.close();
    }
  });
});

describe('payload encryption', () => {
  it('stores the text, the summary and the memo encrypted while GET returns the summary', async () => {
    const marker = `marker-${Date.now().toString(36)}-enc`;
    const taskId = await createTask(harness.baseUrl, `${marker} is the word of the day. The council approved the plan.`);
    const done = await finished(harness.baseUrl, taskId);
    expect(done.body.output.summary).toContain(marker);
    const stored = await storedHistory(taskId);
    expect(stored.payloads.length).toBeGreaterThanOrEqual(4);
    expect(stored.payloads.map((payload) => [metadata(payload, 'encoding'), metadata(payload, 'encryption-key-id')])).toEqual(
      stored.payloads.map(() => ['binary/encrypted', 'first']),
    );
    expect(stored.bytes.includes(Buffer.from(marker))).toBe(false);
  });

  it('reads a task written before encryption was turned on', async () => {
    const marker = `marker-${Date.now().toString(36)}-plain`;
    const taskId = await createTask(await apiWith(undefined), `${marker} came before the keys. The plan was approved.`);
    const [input] = (await storedHistory(taskId)).payloads;
    expect(metadata(input, 'encoding')).toBe('json/plain');
    const done = await finished(harness.baseUrl, taskId);
    expect(done.body.output.summary).toContain(marker);
  });

  it('after a rotation encrypts with the new key and still reads what the old one encrypted', async () => {
    const rotated = await apiWith(`${SECOND_KEY},${FIRST_KEY}`);
    const before = await createTask(harness.baseUrl, 'Written under the first key. It stays readable.');
    await finished(harness.baseUrl, before);
    expect((await finished(rotated, before)).body.output.summary).toContain('first key');
    const after = await createTask(rotated, 'Written under the second key. Only the rotated ring reads it.');
    const [input] = (await storedHistory(after)).payloads;
    expect(metadata(input, 'encryption-key-id')).toBe('second');
    // The harness's worker holds only the first key: this task could never run there.
    await raw.workflow.getHandle(taskWorkflowId('acme', after)).terminate('test done');
  });
});

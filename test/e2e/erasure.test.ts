import Database from 'better-sqlite3';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { newAssessmentId } from '../../src/common/ids/assessment-ids';
import { newTaskId } from '../../src/common/ids/task-ids';
import { Storage } from '../../src/common/storage/storage';
import type { WebhookDeliveryAttempt } from '../../src/common/storage/tables';
import { quote } from '../../src/common/visibility/visibility-query';
import { EXTRACTIVE_MODEL, assessmentWorkflowId, outcomeEventId, reviewOutcomeName, taskWorkflowId, webhookEventWorkflowId } from '../../src/contract';
import { AssayClient } from '../../src/sdk';
import { AssayHarness } from '../support/assay-harness';
import { markerAssessment, markerTask, newMarker } from '../support/customer-marker';
import { eventually } from '../support/eventually';
import { SINGLE_ZONE_GRAPH } from '../support/graphs';
import { HeldProvider } from '../support/held-provider';
import { bearer, http } from '../support/http';
import { approveAssessment } from '../support/review-assessment';
import { SUMMARIZE_TASK } from '../support/tasks';
import { WebhookApi } from '../support/webhook-api';
import { WebhookReceiver } from '../support/webhook-receiver';
import { workflowsHolding } from '../support/workflows-holding';

// The sweep (which prunes delivery records) runs every second here, a failed delivery is retried within a second.
const ENV = { WEBHOOK_SWEEP_INTERVAL: '1s', WEBHOOK_RETRY_INITIAL_INTERVAL: '200ms', WEBHOOK_RETRY_MAX_INTERVAL: '1s' };
// Longer than a retry interval and a sweep: an event about an erased resource would have arrived by then.
const SETTLE_MS = 3_000;
const DAY_MS = 86_400_000;

const provider = new HeldProvider();
const receiver = new WebhookReceiver();
let harness: AssayHarness;
let api: WebhookApi;
let acme: string;
let acmeEndpoint: string;
let globex: string;
let connection: Connection;
let temporal: Client;
let storage: Storage;

beforeAll(async () => {
  harness = await AssayHarness.start({ provider, env: ENV });
  api = new WebhookApi(harness);
  acme = (await harness.issueKey('acme', 'test')).key;
  globex = (await harness.issueKey('globex', 'test')).key;
  await receiver.listen();
  const registered = await api.register(acme, { url: receiver.url(), events: ['ai_task.completed', 'assessment.reviewed'] });
  expect(registered.status).toBe(201);
  acmeEndpoint = registered.body.id;
  connection = await Connection.connect({ address: harness.temporal.address });
  temporal = new Client({ connection, namespace: harness.config.values.TEMPORAL_NAMESPACE_SANDBOX });
  // The database the API and the worker share, read and written as an operator's tool would.
  storage = await Storage.open(harness.config);
});

afterAll(async () => {
  provider.release();
  await receiver.close();
  await connection?.close();
  await storage?.close();
  await harness?.stop();
});

const url = (path: string) => `${harness.baseUrl}${path}`;
const erase = (path: string, key = acme) => http(url(path), { method: 'DELETE', headers: bearer(key) });
const read = (path: string, key = acme) => http(url(path), { headers: bearer(key) });

/** Whether Temporal still has any run of the workflow id. */
async function exists(workflowId: string): Promise<boolean> {
  return temporal.workflow
    .getHandle(workflowId)
    .describe()
    .then(
      () => true,
      (error: unknown) => {
        if (error instanceof WorkflowNotFoundError) return false;
        throw error;
      },
    );
}

async function finishedTask(key = acme, task = SUMMARIZE_TASK): Promise<string> {
  const created = await http(url('/v1/ai/tasks'), { method: 'POST', headers: { ...bearer(key), prefer: 'wait=30' }, json: task });
  expect(created.body.status).toBe('succeeded');
  return created.body.id;
}

/** The workflows of the customer-asked redeliveries of one event, as visibility lists them. */
async function redeliveryWorkflows(organizationId: string, eventId: string): Promise<string[]> {
  const ids: string[] = [];
  const prefix = `${webhookEventWorkflowId(organizationId, eventId)}/redelivery/`;
  for await (const execution of temporal.workflow.list({ query: `WorkflowId STARTS_WITH ${quote(prefix)}` })) ids.push(execution.workflowId);
  return ids;
}

/** Asks to redeliver the event's first logged attempt to the endpoint. */
async function askRedelivery(key: string, endpointId: string, eventId: string) {
  const [attempt] = (await api.deliveriesUntil(key, endpointId, (deliveries) => deliveries.some((delivery) => delivery.event_id === eventId))).filter(
    (delivery) => delivery.event_id === eventId,
  );
  return http(url(`/v1/webhook-endpoints/${endpointId}/deliveries/${attempt.id}/redeliver`), { method: 'POST', headers: bearer(key) });
}

/** Redelivers the event's first logged attempt to the endpoint, and waits until its redelivery is listed. */
async function redeliver(key: string, endpointId: string, organizationId: string, eventId: string): Promise<string> {
  expect((await askRedelivery(key, endpointId, eventId)).status).toBe(202);
  const [workflowId] = await eventually(() => redeliveryWorkflows(organizationId, eventId), (ids) => ids.length === 1, `the redelivery of ${eventId}`);
  return workflowId;
}

/** Rows of the table erasures write, as an operator's tool reads the SQLite file. */
function suppressionRows(): number {
  const db = new Database(harness.config.keyDatabasePath, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS count FROM webhook_suppressed_events').get() as { count: number }).count;
  } finally {
    db.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const about = (taskId: string) => (webhook: { body: string }) => webhook.body.includes(taskId);

describe('DELETE /v1/ai/tasks/{task_id}', () => {
  it('cancels a running task first, then erases it and the event of its cancellation: no webhook is sent', async () => {
    const arrived = provider.nextRequest();
    const created = await http(url('/v1/ai/tasks'), { method: 'POST', headers: bearer(acme), json: SUMMARIZE_TASK });
    await arrived;
    const taskId = created.body.id;

    expect((await erase(`/v1/ai/tasks/${taskId}`)).status).toBe(204);

    expect((await read(`/v1/ai/tasks/${taskId}`)).status).toBe(404);
    expect(await exists(taskWorkflowId('acme', taskId))).toBe(false);
    expect(await exists(webhookEventWorkflowId('acme', outcomeEventId(taskId, 'failed.CANCELED')))).toBe(false);
    provider.release();
    // The receiver is subscribed: an event sent about the task would have arrived by now.
    await sleep(SETTLE_MS);
    expect(receiver.received.filter(about(taskId))).toEqual([]);
  });

  it('stops the retries of an event about a finished task: nothing arrives once the receiver is back', async () => {
    const initech = (await harness.issueKey('initech', 'test')).key;
    const down = new WebhookReceiver();
    await down.listen();
    const registered = await api.register(initech, { url: down.url(), events: ['ai_task.completed'] });
    await down.close();
    try {
      const taskId = await finishedTask(initech);
      const eventId = outcomeEventId(taskId, 'succeeded');
      await api.deliveriesUntil(initech, registered.body.id, (deliveries) => deliveries.length >= 2);
      // A redelivery retrying too, in its own workflow.
      const redelivery = await redeliver(initech, registered.body.id, 'initech', eventId);

      expect((await erase(`/v1/ai/tasks/${taskId}`, initech)).status).toBe(204);
      expect(await exists(redelivery)).toBe(false);
      await down.listen();
      await sleep(SETTLE_MS);
      expect(down.received).toEqual([]);
    } finally {
      await down.close();
    }
  });

  it('erases a finished task with its history: GET and the list answer without it, a repeat is 204 again', async () => {
    const taskId = await finishedTask();
    await receiver.waitFor(receiver.received.length + 1).catch(() => undefined);

    const erased = await erase(`/v1/ai/tasks/${taskId}`);
    expect(erased.status).toBe(204);
    expect(erased.body).toBeUndefined();

    expect((await read(`/v1/ai/tasks/${taskId}`)).status).toBe(404);
    const listed = await read('/v1/ai/tasks?limit=100');
    expect(listed.body.data.map((task: { id: string }) => task.id)).not.toContain(taskId);
    expect(await exists(taskWorkflowId('acme', taskId))).toBe(false);
    expect(await exists(webhookEventWorkflowId('acme', outcomeEventId(taskId, 'succeeded')))).toBe(false);
    expect((await erase(`/v1/ai/tasks/${taskId}`)).status).toBe(204);
  });

  it('erases only in the caller’s organisation: another’s id is 404, and the task, its webhooks and their delivery records stay', async () => {
    const taskId = await finishedTask();
    const eventId = outcomeEventId(taskId, 'succeeded');
    await api.deliveriesUntil(acme, acmeEndpoint, (deliveries) => deliveries.some((delivery) => delivery.event_id === eventId));
    const refused = await erase(`/v1/ai/tasks/${taskId}`, globex);
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('NOT_FOUND');
    expect((await read(`/v1/ai/tasks/${taskId}`)).status).toBe(200);
    const deliveries = await api.deliveriesUntil(acme, acmeEndpoint, () => true);
    expect(deliveries.filter((delivery) => delivery.event_id === eventId)).toHaveLength(1);
    expect(await storage.webhooks.isSuppressed({ organizationId: 'acme', environment: 'test' }, eventId)).toBe(false);
  });

  it('is AssayClient.deleteTask in the SDK, which resolves again when the task is gone', async () => {
    const client = new AssayClient({ baseUrl: harness.baseUrl, apiKey: acme });
    const taskId = await finishedTask();
    await client.deleteTask(taskId);
    await expect(client.getTask(taskId)).rejects.toMatchObject({ status: 404 });
    await client.deleteTask(taskId);
  });

  it('answers 404 for something that cannot be a task id', async () => {
    const refused = await erase('/v1/ai/tasks/not-a-task');
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('NOT_FOUND');
  });

  it('answers 404 for a task id that never existed, and writes nothing', async () => {
    const before = suppressionRows();
    for (let i = 0; i < 5; i++) {
      const refused = await erase(`/v1/ai/tasks/${newTaskId()}`);
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('NOT_FOUND');
    }
    expect(suppressionRows()).toBe(before);
  });

  it('erases the redeliveries of its events too: no workflow holds the text afterwards', async () => {
    const marker = newMarker();
    const taskId = await finishedTask(acme, { ...markerTask(marker), model: EXTRACTIVE_MODEL });
    const eventId = outcomeEventId(taskId, 'succeeded');
    const redelivery = await redeliver(acme, acmeEndpoint, 'acme', eventId);
    // The summary holds the marker: the task, its event and the redelivery carry it.
    const holders = await eventually(() => workflowsHolding(temporal, marker), (ids) => ids.includes(redelivery), 'the redelivery to hold the summary');
    expect(holders).toEqual(expect.arrayContaining([taskWorkflowId('acme', taskId), webhookEventWorkflowId('acme', eventId)]));

    expect((await erase(`/v1/ai/tasks/${taskId}`)).status).toBe(204);
    await eventually(() => workflowsHolding(temporal, marker), (ids) => ids.length === 0, 'no workflow to hold the marker');
    expect(await exists(redelivery)).toBe(false);
  });

  it('refuses a redelivery whose event an erasure suppressed meanwhile, and deletes the workflow it had started', async () => {
    const taskId = await finishedTask();
    const eventId = outcomeEventId(taskId, 'succeeded');
    await api.deliveriesUntil(acme, acmeEndpoint, (deliveries) => deliveries.some((delivery) => delivery.event_id === eventId));
    // As an erasure leaves it that read the recorded redeliveries just before this one recorded its own.
    await storage.webhooks.suppressEvents({ organizationId: 'acme', environment: 'test' }, [eventId], new Date().toISOString());

    const refused = await askRedelivery(acme, acmeEndpoint, eventId);
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('NOT_FOUND');
    const [started] = await storage.webhooks.redeliveriesOf({ organizationId: 'acme', environment: 'test' }, [eventId]);
    await eventually(() => exists(started), (found) => !found, 'the refused redelivery deleted');
  });

  it('erases a redelivery that outlived its task: the task is gone from Temporal, the DELETE is 204 all the same', async () => {
    const taskId = await finishedTask();
    const eventId = outcomeEventId(taskId, 'succeeded');
    const redelivery = await redeliver(acme, acmeEndpoint, 'acme', eventId);
    // As retention leaves it: the task and its event deleted, the redelivery (closed later) still kept.
    for (const workflowId of [taskWorkflowId('acme', taskId), webhookEventWorkflowId('acme', eventId)]) {
      await temporal.workflowService.deleteWorkflowExecution({ namespace: temporal.options.namespace, workflowExecution: { workflowId } });
      await eventually(() => exists(workflowId), (found) => !found, `${workflowId} deleted`);
    }

    expect((await erase(`/v1/ai/tasks/${taskId}`)).status).toBe(204);
    await eventually(() => exists(redelivery), (found) => !found, 'the redelivery deleted');
  });
});

describe('DELETE /v1/network-assessments/{assessment_id}', () => {
  it('cancels and erases an open assessment; another organisation’s DELETE is 404, GET answers 404 after and a repeat 204', async () => {
    const created = await http(url('/v1/network-assessments'), {
      method: 'POST',
      headers: bearer(acme),
      json: { name: 'Erased shop', context: 'To be erased.', ...SINGLE_ZONE_GRAPH },
    });
    expect(created.status).toBe(202);
    const assessmentId = created.body.assessment_id;

    expect((await erase(`/v1/network-assessments/${assessmentId}`, globex)).status).toBe(404);
    expect((await read(`/v1/network-assessments/${assessmentId}`)).status).toBe(200);

    expect((await erase(`/v1/network-assessments/${assessmentId}`)).status).toBe(204);
    expect((await read(`/v1/network-assessments/${assessmentId}`)).status).toBe(404);
    expect(await exists(assessmentWorkflowId('acme', assessmentId))).toBe(false);
    expect((await erase(`/v1/network-assessments/${assessmentId}`)).status).toBe(204);
  });

  it('answers 404 for an assessment id that never existed, and writes nothing', async () => {
    const before = suppressionRows();
    for (let i = 0; i < 5; i++) expect((await erase(`/v1/network-assessments/${newAssessmentId()}`)).status).toBe(404);
    expect(suppressionRows()).toBe(before);
  });

  it('erases a reviewed assessment with the redeliveries of its event: no workflow holds its text afterwards', async () => {
    const marker = newMarker();
    const created = await http(url('/v1/network-assessments'), { method: 'POST', headers: bearer(acme), json: markerAssessment(marker) });
    expect(created.status).toBe(202);
    const assessmentId = created.body.assessment_id;
    await approveAssessment(harness.temporal.address, 'acme', assessmentId);
    const eventId = outcomeEventId(assessmentId, reviewOutcomeName('approved'));
    const redelivery = await redeliver(acme, acmeEndpoint, 'acme', eventId);
    await eventually(() => workflowsHolding(temporal, marker), (ids) => ids.includes(redelivery), 'the redelivery to hold the assessment');

    expect((await erase(`/v1/network-assessments/${assessmentId}`)).status).toBe(204);
    await eventually(() => workflowsHolding(temporal, marker), (ids) => ids.length === 0, 'no workflow to hold the marker');
  });
});

describe('DELETE under the create rate limits', () => {
  it('answers a burst over the limit with 429 RATE_LIMITED and Retry-After, from the creates’ buckets', async () => {
    const umbrella = (await harness.issueKey('umbrella', 'test')).key;
    const burst = harness.config.values.RATE_LIMIT_CREATES_BURST;
    const answers = await Promise.all(Array.from({ length: 2 * burst }, () => erase(`/v1/ai/tasks/${newTaskId()}`, umbrella)));
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].body.error.code).toBe('RATE_LIMITED');
    expect(refused[0].headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    const spent = answers.filter((answer) => answer.status !== 429);
    expect(spent.every((answer) => answer.status === 404)).toBe(true);
    expect(spent[0].headers.get('ratelimit-policy')).toMatch(/^"creates";q=\d+;w=\d+, "organisation-creates";q=\d+;w=\d+$/);
  });
});

describe('webhook delivery records', () => {
  function attempt(id: string, endpointId: string, attemptedAt: Date): WebhookDeliveryAttempt {
    return { id, endpointId, eventId: `evt_${id}`, eventType: 'ai_task.completed', attempt: 1, outcome: 'succeeded', httpStatus: 200, error: null, attemptedAt: attemptedAt.toISOString(), durationMs: 3 };
  }

  it('are pruned by the sweep once older than RETENTION_PERIOD, with suppressed events; newer ones stay', async () => {
    const retentionMs = harness.config.values.RETENTION_PERIOD;
    const registered = await api.register(acme, { url: receiver.url(), events: ['ai_task.completed'] });
    const endpointId = registered.body.id;
    const owner = { organizationId: 'acme', environment: 'test' } as const;
    const expired = new Date(Date.now() - retentionMs - DAY_MS);
    const kept = new Date(Date.now() - retentionMs + DAY_MS);
    await storage.webhooks.recordDelivery(attempt('wd_expired', endpointId, expired));
    await storage.webhooks.recordDelivery(attempt('wd_kept', endpointId, kept));
    await storage.webhooks.suppressEvents(owner, ['evt_erased_long_ago'], expired.toISOString());
    await storage.webhooks.suppressEvents(owner, ['evt_erased_lately'], kept.toISOString());

    const left = await api.deliveriesUntil(acme, endpointId, (deliveries) => deliveries.length === 1);
    expect(left.map((delivery) => delivery.id)).toEqual(['wd_kept']);
    expect(await storage.webhooks.isSuppressed(owner, 'evt_erased_long_ago')).toBe(false);
    expect(await storage.webhooks.isSuppressed(owner, 'evt_erased_lately')).toBe(true);
  });

  it('go with their endpoint when it is deleted', async () => {
    const own = new WebhookReceiver();
    await own.listen();
    try {
      const registered = await api.register(globex, { url: own.url(), events: ['ai_task.completed'] });
      const endpointId = registered.body.id;
      await finishedTask(globex);
      await api.deliveriesUntil(globex, endpointId, (deliveries) => deliveries.length === 1);
      expect(await storage.webhooks.listDeliveries(endpointId, 10)).toHaveLength(1);

      expect((await http(url(`/v1/webhook-endpoints/${endpointId}`), { method: 'DELETE', headers: bearer(globex) })).status).toBe(204);
      expect(await storage.webhooks.listDeliveries(endpointId, 10)).toEqual([]);
    } finally {
      await own.close();
    }
  });
});

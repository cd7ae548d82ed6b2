import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { assessmentWorkflowId, outcomeEventId, taskWorkflowId, webhookEventWorkflowId } from '../../src/contract';
import { AssayClient } from '../../src/sdk';
import { AssayHarness } from '../support/assay-harness';
import { SINGLE_ZONE_GRAPH } from '../support/graphs';
import { HeldProvider } from '../support/held-provider';
import { bearer, http } from '../support/http';
import { SUMMARIZE_TASK } from '../support/tasks';
import { WebhookApi } from '../support/webhook-api';
import { WebhookReceiver } from '../support/webhook-receiver';

const provider = new HeldProvider();
const receiver = new WebhookReceiver();
let harness: AssayHarness;
let api: WebhookApi;
let acme: string;
let globex: string;
let connection: Connection;
let temporal: Client;

beforeAll(async () => {
  harness = await AssayHarness.start({ provider });
  api = new WebhookApi(harness);
  acme = (await harness.issueKey('acme', 'test')).key;
  globex = (await harness.issueKey('globex', 'test')).key;
  await receiver.listen();
  expect((await api.register(acme, { url: receiver.url(), events: ['ai_task.completed', 'assessment.reviewed'] })).status).toBe(201);
  connection = await Connection.connect({ address: harness.temporal.address });
  temporal = new Client({ connection, namespace: harness.config.values.TEMPORAL_NAMESPACE_SANDBOX });
});

afterAll(async () => {
  provider.release();
  await receiver.close();
  await connection?.close();
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

async function finishedTask(): Promise<string> {
  const created = await http(url('/v1/ai/tasks'), { method: 'POST', headers: { ...bearer(acme), prefer: 'wait=30' }, json: SUMMARIZE_TASK });
  expect(created.body.status).toBe('succeeded');
  return created.body.id;
}

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
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(receiver.received.filter((webhook) => webhook.body.includes(taskId))).toEqual([]);
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

  it('erases only in the caller’s organisation', async () => {
    const taskId = await finishedTask();
    expect((await erase(`/v1/ai/tasks/${taskId}`, globex)).status).toBe(204);
    expect((await read(`/v1/ai/tasks/${taskId}`)).status).toBe(200);
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
});

describe('DELETE /v1/network-assessments/{assessment_id}', () => {
  it('cancels and erases an open assessment; GET answers 404 and a repeat 204', async () => {
    const created = await http(url('/v1/network-assessments'), {
      method: 'POST',
      headers: bearer(acme),
      json: { name: 'Erased shop', context: 'To be erased.', ...SINGLE_ZONE_GRAPH },
    });
    expect(created.status).toBe(202);
    const assessmentId = created.body.assessment_id;

    expect((await erase(`/v1/network-assessments/${assessmentId}`, globex)).status).toBe(204);
    expect((await read(`/v1/network-assessments/${assessmentId}`)).status).toBe(200);

    expect((await erase(`/v1/network-assessments/${assessmentId}`)).status).toBe(204);
    expect((await read(`/v1/network-assessments/${assessmentId}`)).status).toBe(404);
    expect(await exists(assessmentWorkflowId('acme', assessmentId))).toBe(false);
    expect((await erase(`/v1/network-assessments/${assessmentId}`)).status).toBe(204);
  });
});

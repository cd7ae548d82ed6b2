import { WorkflowNotFoundError } from '@temporalio/client';
import { builtEntrypoints } from '../../chaos/stack/built-entrypoints';
import { CHAOS_ORGANIZATION } from '../../chaos/stack/chaos-stack';
import { issueSandboxKey } from '../../chaos/stack/issue-key';
import { outcomeEventId, taskWorkflowId, webhookEventWorkflowId } from '../../src/contract';
import { ClusterStack } from '../support/cluster-stack';
import { filesUnder, holding, markerAssessment, markerTask, newMarker } from '../support/customer-marker';
import { eventually } from '../support/eventually';
import { bearer, http } from '../support/http';
import { columnsHolding } from '../support/postgres-scan';
import { SUMMARIZE_TASK } from '../support/tasks';
import { WebhookReceiver } from '../support/webhook-receiver';
import { workflowsHolding } from '../support/workflows-holding';

// Issue 17 on the production topology: what a customer sends is in none of the cluster's
// PostgreSQL databases nor any file it wrote, and DELETE erases a task through either instance,
// with every workflow that carried its text.
const MARKER = newMarker();
// The erasure's own organisation, whose webhook endpoint the marker tests below do not have.
const ERASING_ORGANIZATION = 'erasing';

let stack: ClusterStack;
let apis: string[];

beforeAll(async () => {
  // Every Assay process logs at its most verbose level; the erasure's receiver is on loopback.
  stack = await ClusterStack.start({ label: 'customer-data', serviceEnv: { LOG_LEVEL: 'trace', WEBHOOKS_ALLOW_INSECURE_SANDBOX: 'true' } });
  apis = stack.cluster.apiUrls;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const get = (api: string, path: string) => http(`${api}${path}`, { headers: bearer(stack.apiKey) });

/** Visibility on PostgreSQL follows the workflows a moment later: reads the task list of both instances until `done` holds of each. */
async function taskListsUntil(done: (ids: string[]) => boolean): Promise<void> {
  for (const api of apis) {
    await eventually(
      () => get(api, '/v1/ai/tasks?limit=100'),
      (response) => response.status === 200 && done(response.body.data.map((task: { id: string }) => task.id)),
      `the task list of ${api}`,
    );
  }
}

describe('DELETE /v1/ai/tasks/{task_id} on the cluster', () => {
  it('erases a finished task through the other instance: 204 at once, then gone from GET and the list of both and from Temporal', async () => {
    const created = await http(`${apis[0]}/v1/ai/tasks`, { method: 'POST', headers: { ...bearer(stack.apiKey), prefer: 'wait=30' }, json: SUMMARIZE_TASK });
    expect(created.body.status).toBe('succeeded');
    const taskId: string = created.body.id;
    await taskListsUntil((ids) => ids.includes(taskId));

    // 204, not 202: Temporal deleted it within the API's RPC deadline (history.transferProcessorEnsureCloseBeforeDelete).
    expect((await http(`${apis[1]}/v1/ai/tasks/${taskId}`, { method: 'DELETE', headers: bearer(stack.apiKey) })).status).toBe(204);

    expect((await get(apis[1], `/v1/ai/tasks/${taskId}`)).status).toBe(404);
    // The other instance may still answer from its cache of closed reads (CLOSED_READ_TTL_MS, 2 s): it had just read the task.
    await eventually(() => get(apis[0], `/v1/ai/tasks/${taskId}`), (response) => response.status === 404, 'GET on the other instance answers 404');
    await taskListsUntil((ids) => !ids.includes(taskId));
    const temporal = await stack.auditClient();
    await expect(temporal.workflow.getHandle(taskWorkflowId(CHAOS_ORGANIZATION, taskId)).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect((await http(`${apis[0]}/v1/ai/tasks/${taskId}`, { method: 'DELETE', headers: bearer(stack.apiKey) })).status).toBe(204);
  });
});

describe('erasure after a redelivery on the cluster', () => {
  it('leaves no workflow holding the text: not the task, its event nor the redelivery of the event', async () => {
    const receiver = new WebhookReceiver();
    await receiver.listen();
    try {
      const key = await issueSandboxKey(builtEntrypoints().cli, stack.cliEnv(), ERASING_ORGANIZATION);
      const marker = newMarker();
      const registered = await http(`${apis[0]}/v1/webhook-endpoints`, { method: 'POST', headers: bearer(key), json: { url: receiver.url(), events: ['ai_task.completed'] } });
      expect(registered.status).toBe(201);
      const created = await http(`${apis[0]}/v1/ai/tasks`, { method: 'POST', headers: { ...bearer(key), prefer: 'wait=30' }, json: markerTask(marker) });
      expect(created.body.status).toBe('succeeded');
      const taskId: string = created.body.id;
      await receiver.waitFor(1);
      const deliveries = await eventually(
        () => http(`${apis[1]}/v1/webhook-endpoints/${registered.body.id}/deliveries`, { headers: bearer(key) }),
        (response) => response.body.data.length === 1,
        'the delivery in the log',
      );
      const redeliver = `${apis[1]}/v1/webhook-endpoints/${registered.body.id}/deliveries/${deliveries.body.data[0].id}/redeliver`;
      expect((await http(redeliver, { method: 'POST', headers: bearer(key) })).status).toBe(202);
      await receiver.waitFor(2);

      // The audit client decrypts: the summary is in the task, its event and the redelivery.
      const temporal = await stack.auditClient();
      const eventWorkflowId = webhookEventWorkflowId(ERASING_ORGANIZATION, outcomeEventId(taskId, 'succeeded'));
      const isRedelivery = (id: string) => id.startsWith(`${eventWorkflowId}/redelivery/`);
      const holders = await eventually(() => workflowsHolding(temporal, marker), (ids) => ids.some(isRedelivery), 'the redelivery holding the summary');
      expect(holders).toEqual(expect.arrayContaining([taskWorkflowId(ERASING_ORGANIZATION, taskId), eventWorkflowId]));

      expect((await http(`${apis[1]}/v1/ai/tasks/${taskId}`, { method: 'DELETE', headers: bearer(key) })).status).toBe(204);
      await eventually(() => workflowsHolding(temporal, marker), (ids) => ids.length === 0, 'no workflow holding the marker');
      expect(receiver.received).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });
});

describe('customer data at rest on the cluster', () => {
  let taskId: string;
  let assessmentId: string;

  it('answers GET with the summary of a task whose text holds the marker', async () => {
    const created = await http(`${apis[0]}/v1/ai/tasks`, { method: 'POST', headers: { ...bearer(stack.apiKey), prefer: 'wait=30' }, json: markerTask(MARKER) });
    taskId = created.body.id;
    expect((await get(apis[1], `/v1/ai/tasks/${taskId}`)).body).toMatchObject({ status: 'succeeded', output: { summary: expect.stringContaining(MARKER) } });
  });

  it('answers GET with an assessment whose name, context and graph hold the marker', async () => {
    const created = await http(`${apis[0]}/v1/network-assessments`, { method: 'POST', headers: bearer(stack.apiKey), json: markerAssessment(MARKER) });
    expect(created.status).toBe(202);
    assessmentId = created.body.assessment_id;
    const read = await eventually(() => get(apis[1], `/v1/network-assessments/${assessmentId}`), (response) => Array.isArray(response.body.findings), 'the assessment’s findings');
    expect(read.body.name).toBe(`Shop ${MARKER}`);
  });

  it('stored the marker in no column of any PostgreSQL database, and wrote it to no file, while it stored the ids', async () => {
    const { server, user, password } = stack.cluster.postgres;
    const postgres = { port: server.port, user, password };
    // The search does find what is stored in the clear: the workflow ids, as text (visibility) and inside bytes (histories).
    const idHits = await columnsHolding(postgres, taskId);
    expect(idHits.map((hit) => hit.column)).toEqual(
      expect.arrayContaining(['temporal.public.executions.workflow_id', 'temporal_visibility.public.executions_visibility.workflow_id']),
    );
    expect(idHits.some((hit) => hit.dataType === 'bytea')).toBe(true);
    expect((await columnsHolding(postgres, assessmentId)).length).toBeGreaterThan(0);
    expect(await columnsHolding(postgres, MARKER)).toEqual([]);

    // Stopped first, so every log is flushed: Temporal's, the UI's, PostgreSQL's, every Assay process's; and PostgreSQL's own files.
    await stack.cluster.stop();
    const written = filesUnder(stack.dir);
    expect(written).toEqual(expect.arrayContaining(['logs/api-1.log', 'logs/worker-1.log', 'logs/temporal-history.log', 'postgres/postgres.log']));
    const logs = written.filter((file) => file.startsWith('logs/'));
    expect(holding(stack.dir, logs, taskId)).not.toEqual([]);
    expect(holding(stack.dir, written, MARKER)).toEqual([]);
  });
});

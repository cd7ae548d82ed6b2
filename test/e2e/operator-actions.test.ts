import { createHash } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { newTaskId } from '../../src/common/ids/task-ids';
import {
  AI_TASK_WORKFLOW_TYPE,
  OPERATOR_CLOSE_SWEEP_WORKFLOW_TYPE,
  ORGANIZATION_SEARCH_ATTRIBUTE,
  TASK_TYPE_SEARCH_ATTRIBUTE,
  assessmentWorkflowId,
  claimAssessmentUpdate,
  completeAssessmentUpdate,
  outcomeEventId,
  taskWorkflowId,
  webhookEventWorkflowId,
  type AiTaskMemo,
} from '../../src/contract';
import { AssayHarness } from '../support/assay-harness';
import { HeldProvider } from '../support/held-provider';
import { bearer, http } from '../support/http';
import { recordHistoryIfAsked } from '../support/record-history';
import { remoteProviderEnv } from '../support/remote-provider-env';
import { temporalWorkflowCommand } from '../support/temporal-operator';
import { SANDBOX_NAMESPACE } from '../support/test-temporal';
import { WebhookApi } from '../support/webhook-api';
import { WebhookReceiver } from '../support/webhook-receiver';

// What GET, every list filter and the webhooks say after each operator action Temporal allows
// (docs/operator-actions.md). The provider holds summaries, so a task can be caught running.
const TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed'];
const ASSESSMENT_STATUSES = ['submitted', 'under_review', 'completed'];
// The sweep for terminated and timed-out runs runs every second here (a minute by default).
const ENV = { WEBHOOK_RETRY_INITIAL_INTERVAL: '200ms', WEBHOOK_RETRY_MAX_INTERVAL: '1s', WEBHOOK_SWEEP_INTERVAL: '1s' };
// Longer than a sweep interval and the API's 2 s cache of closed reads: what did not happen by then will not.
const SETTLE_MS = 4_000;

let harness: AssayHarness;
let provider: HeldProvider;
let api: WebhookApi;
let client: Client;
let connection: Connection;
let receiver: WebhookReceiver;
let org: string;
let key: string;
let orgCount = 0;

beforeAll(async () => {
  provider = new HeldProvider();
  harness = await AssayHarness.start({ env: { ...remoteProviderEnv(await provider.listen()), ...ENV } });
  api = new WebhookApi(harness);
  connection = await Connection.connect({ address: harness.temporal.address });
  client = new Client({ connection, namespace: SANDBOX_NAMESPACE });
});

// A fresh organisation and receiver per test, so no other test's tasks or events show.
beforeEach(async () => {
  provider.hold();
  receiver = new WebhookReceiver();
  await receiver.listen();
  org = `ops${++orgCount}`;
  key = (await harness.issueKey(org, 'test')).key;
  const registered = await api.register(key, { url: receiver.url(), events: ['ai_task.completed', 'assessment.reviewed'] });
  expect(registered.status).toBe(201);
});

afterEach(async () => {
  provider.release();
  await receiver.close();
});

afterAll(async () => {
  await connection?.close();
  await harness?.stop();
  await provider?.close();
});

const operator = (...args: string[]) => temporalWorkflowCommand(harness.temporal.address, args);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function createRunningTask(): Promise<string> {
  const called = provider.nextRequest();
  const id = await api.createTask(key);
  await called;
  return id;
}

async function createAssessment(): Promise<string> {
  const created = await http(`${harness.baseUrl}/v1/network-assessments`, {
    method: 'POST',
    headers: bearer(key),
    json: { name: 'Shop', context: 'EU', components: [{ id: 'app', kind: 'app', zone: 'a' }], links: [] },
  });
  return created.body.assessment_id as string;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} never happened; last: ${JSON.stringify(value)}`);
    await sleep(200);
  }
}

const getTask = async (id: string) => (await api.get(key, `/v1/ai/tasks/${id}`)).body;
const taskUntil = (id: string, done: (task: any) => boolean) => until(() => getTask(id), done, `task ${id} state`);

/** How many times each list (unfiltered, then each status filter) shows `id`. */
async function listings(path: string, idField: string, statuses: string[], id: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const status of ['all', ...statuses]) {
    const query = status === 'all' ? '?limit=100' : `?limit=100&status=${status}`;
    const { body } = await api.get(key, `${path}${query}`);
    counts[status] = body.data.filter((item: any) => item[idField] === id).length;
  }
  return counts;
}

/** Exactly once in the unfiltered list and under `status`, nowhere else. */
function onlyUnder(status: string, statuses: string[]): Record<string, number> {
  return Object.fromEntries(['all', ...statuses].map((name) => [name, name === 'all' || name === status ? 1 : 0]));
}

const taskListings = (id: string) => listings('/v1/ai/tasks', 'id', TASK_STATUSES, id);
const taskListingsUntil = (id: string, status: string) =>
  until(() => taskListings(id), (counts) => JSON.stringify(counts) === JSON.stringify(onlyUnder(status, TASK_STATUSES)), `lists of ${id} agreeing on ${status}`);

/** Every event this test's receiver got, as [webhook-id, type, data.status]. */
function eventsReceived(): string[][] {
  return receiver.received.map((request) => {
    const event = JSON.parse(request.body);
    return [String(request.headers['webhook-id']), event.type, event.data.status];
  });
}

/** GET says failed with `code`, only the unfiltered and `failed` lists show it, and exactly one event says so, with data = GET. */
async function expectFailedEverywhere(id: string, code: string): Promise<void> {
  expect((await taskUntil(id, (found) => found.status === 'failed')).error.code).toBe(code);
  await taskListingsUntil(id, 'failed');
  const [request] = await receiver.waitFor(1);
  expect(JSON.parse(request.body).data).toEqual(await getTask(id));
  await sleep(SETTLE_MS);
  expect(eventsReceived()).toEqual([[`evt_${id}.failed.${code}`, 'ai_task.completed', 'failed']]);
}

/** With ASSAY_RECORD_HISTORIES=1, the histories of the event the sweep started and of a sweep that found a close. */
async function recordSweepHistories(eventId: string): Promise<void> {
  const event = client.workflow.getHandle(webhookEventWorkflowId(org, eventId));
  await event.result();
  recordHistoryIfAsked(await event.fetchHistory(), 'webhook-event-swept');
  for await (const sweep of client.workflow.list({ query: `WorkflowType = '${OPERATOR_CLOSE_SWEEP_WORKFLOW_TYPE}' AND ExecutionStatus = 'Completed'` })) {
    const handle = client.workflow.getHandle(sweep.workflowId, sweep.runId);
    if ((await handle.result()) > 0) {
      recordHistoryIfAsked(await handle.fetchHistory(), 'operator-close-sweep-found-one');
      return;
    }
  }
  throw new Error('no completed sweep found the terminated task');
}

describe('terminate', () => {
  it('of a running task: GET, every list filter and one webhook all say failed/CANCELED', async () => {
    const id = await createRunningTask();
    await operator('terminate', '--workflow-id', taskWorkflowId(org, id), '--reason', 'operator terminate in a test');
    await expectFailedEverywhere(id, 'CANCELED');
    await recordSweepHistories(outcomeEventId(id, 'failed.CANCELED'));
    // The sweep starts the event in the run's fair share, as the run itself would have.
    const event = await client.workflow.getHandle(webhookEventWorkflowId(org, outcomeEventId(id, 'failed.CANCELED'))).describe();
    expect(event.priority).toMatchObject({ fairnessKey: org });
  });

  it('of an assessment before its review: GET and the lists keep its last state, and no event goes out', async () => {
    const id = await createAssessment();
    await operator('terminate', '--workflow-id', assessmentWorkflowId(org, id), '--reason', 'operator terminate in a test');

    await sleep(SETTLE_MS);
    expect((await api.get(key, `/v1/network-assessments/${id}`)).body.status).toBe('submitted');
    expect(await listings('/v1/network-assessments', 'assessment_id', ASSESSMENT_STATUSES, id)).toEqual(onlyUnder('submitted', ASSESSMENT_STATUSES));
    expect(receiver.received).toHaveLength(0);
  });
});

describe('reset', () => {
  it('of a completed task: GET follows the new run, lists show the task once, and its outcome goes out once', async () => {
    provider.release();
    const id = await api.createTask(key);
    await taskUntil(id, (found) => found.status === 'succeeded');
    await receiver.waitFor(1);

    provider.hold();
    await operator('reset', '--workflow-id', taskWorkflowId(org, id), '--type', 'FirstWorkflowTask', '--reason', 'operator reset in a test');
    await taskUntil(id, (found) => found.status === 'running');
    await taskListingsUntil(id, 'running');

    provider.release();
    await taskUntil(id, (found) => found.status === 'succeeded');
    await taskListingsUntil(id, 'succeeded');
    await sleep(SETTLE_MS);
    expect(await taskListings(id)).toEqual(onlyUnder('succeeded', TASK_STATUSES));
    expect(eventsReceived()).toEqual([[`evt_${id}.succeeded`, 'ai_task.completed', 'succeeded']]);
  });

  it('of a running task: the replaced run shows nowhere, and only the outcome of the new run goes out', async () => {
    const id = await createRunningTask();
    await operator('reset', '--workflow-id', taskWorkflowId(org, id), '--type', 'FirstWorkflowTask', '--reason', 'operator reset in a test');
    await sleep(SETTLE_MS);
    expect((await getTask(id)).status).toBe('running');
    expect(await taskListings(id)).toEqual(onlyUnder('running', TASK_STATUSES));
    expect(receiver.received).toHaveLength(0);

    provider.release();
    await taskUntil(id, (found) => found.status === 'succeeded');
    await taskListingsUntil(id, 'succeeded');
    await receiver.waitFor(1);
    await sleep(SETTLE_MS);
    expect(eventsReceived()).toEqual([[`evt_${id}.succeeded`, 'ai_task.completed', 'succeeded']]);
  });

  it('of a reviewed assessment: reviewed again with the same verdict, the lists show it once and its event goes out once', async () => {
    const id = await createAssessment();
    const review = async () => {
      const handle = client.workflow.getHandle(assessmentWorkflowId(org, id));
      await until(() => handle.executeUpdate(claimAssessmentUpdate, { args: [{ reviewer: 'alice' }] }).then(() => true, () => false), Boolean, 'claim');
      await handle.executeUpdate(completeAssessmentUpdate, { args: [{ verdict: 'approved', notes: 'Fine.' }] });
    };
    await review();
    await receiver.waitFor(1);

    await operator('reset', '--workflow-id', assessmentWorkflowId(org, id), '--type', 'FirstWorkflowTask', '--reason', 'operator reset in a test');
    await until(() => api.get(key, `/v1/network-assessments/${id}`), (found) => found.body.status === 'submitted', 'the new run');
    await review();
    await until(() => api.get(key, `/v1/network-assessments/${id}`), (found) => found.body.status === 'completed', 'the second review');
    await sleep(SETTLE_MS);
    expect(await listings('/v1/network-assessments', 'assessment_id', ASSESSMENT_STATUSES, id)).toEqual(onlyUnder('completed', ASSESSMENT_STATUSES));
    expect(eventsReceived()).toEqual([[`evt_${id}.reviewed.approved`, 'assessment.reviewed', 'completed']]);
  });
});

describe('cancel', () => {
  it('from the CLI closes the task as failed/CANCELED everywhere, with one event', async () => {
    const id = await createRunningTask();
    await operator('cancel', '--workflow-id', taskWorkflowId(org, id));
    await expectFailedEverywhere(id, 'CANCELED');
  });
});

describe('workflow timeout', () => {
  it('closes the task as failed/TIMED_OUT everywhere, with one event', async () => {
    // The API starts tasks without an execution timeout; an operator starting one with a timeout is what gets here.
    const id = newTaskId();
    const memo: AiTaskMemo = { created_at: new Date().toISOString(), task_type: 'summarize', request_hash: createHash('sha256').update(id).digest('hex') };
    const called = provider.nextRequest();
    await client.workflow.start(AI_TASK_WORKFLOW_TYPE, {
      taskQueue: harness.config.values.TEMPORAL_TASK_QUEUE,
      workflowId: taskWorkflowId(org, id),
      // Long enough for the call to reach the held provider on a loaded machine, which the test waits for.
      workflowExecutionTimeout: '10 seconds',
      args: [{ taskId: id, organizationId: org, taskType: 'summarize', input: { text: 'A task that will run out of time. It waits on a held provider.' } }],
      memo: { ...memo },
      typedSearchAttributes: [
        { key: ORGANIZATION_SEARCH_ATTRIBUTE, value: org },
        { key: TASK_TYPE_SEARCH_ATTRIBUTE, value: 'summarize' },
      ],
    });
    await called;
    await expectFailedEverywhere(id, 'TIMED_OUT');
  });
});

describe('delete', () => {
  it('of a running task: GET answers 404, no list shows it, and no event goes out', async () => {
    const id = await createRunningTask();
    await operator('delete', '--workflow-id', taskWorkflowId(org, id), '--yes');
    await until(() => api.get(key, `/v1/ai/tasks/${id}`), (found) => found.status === 404, 'a 404');
    await until(() => taskListings(id), (counts) => Object.values(counts).every((count) => count === 0), 'the lists forgetting it');
    await sleep(SETTLE_MS);
    expect(receiver.received).toHaveLength(0);
  });
});

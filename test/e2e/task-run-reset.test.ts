import { randomUUID } from 'node:crypto';
import { Connection } from '@temporalio/client';
import { taskWorkflowId } from '../../src/contract';
import { AssayHarness } from '../support/assay-harness';
import { HeldProvider } from '../support/held-provider';
import { bearer, http as request } from '../support/http';
import { SANDBOX_NAMESPACE } from '../support/test-temporal';

const provider = new HeldProvider();
let harness: AssayHarness;
let connection: Connection;
let key: string;

beforeAll(async () => {
  harness = await AssayHarness.start({ provider });
  connection = await Connection.connect({ address: harness.temporal.address });
  key = (await harness.issueKey('acme', 'test')).key;
});

afterAll(async () => {
  await connection?.close();
  await harness?.stop();
});

async function getTask(id: string) {
  return request(`${harness.baseUrl}/v1/ai/tasks/${id}`, { headers: bearer(key) });
}

/** What an operator does from the Temporal UI: reset the run to the end of its first workflow task. */
async function resetToFirstWorkflowTask(workflowId: string): Promise<void> {
  const service = connection.workflowService;
  const execution = (await service.describeWorkflowExecution({ namespace: SANDBOX_NAMESPACE, execution: { workflowId } })).workflowExecutionInfo?.execution;
  const history = await service.getWorkflowExecutionHistory({ namespace: SANDBOX_NAMESPACE, execution });
  const firstTaskCompleted = history.history?.events?.find((event) => event.workflowTaskCompletedEventAttributes);
  await service.resetWorkflowExecution({
    namespace: SANDBOX_NAMESPACE,
    workflowExecution: execution,
    reason: 'operator reset in a test',
    workflowTaskFinishEventId: firstTaskCompleted?.eventId,
    requestId: randomUUID(),
  });
}

describe('GET of a task whose run an operator reset', () => {
  it('follows the task to its new run instead of answering from the replaced one', async () => {
    const providerCalled = provider.nextRequest();
    const created = await request(`${harness.baseUrl}/v1/ai/tasks`, {
      method: 'POST',
      headers: bearer(key),
      json: { task_type: 'summarize', input: { text: 'A task an operator will reset. It must survive that.' } },
    });
    expect(created.status).toBe(202);
    await providerCalled;
    expect((await getTask(created.body.id)).body.status).toBe('running');

    await resetToFirstWorkflowTask(taskWorkflowId('acme', created.body.id));
    const afterReset = await getTask(created.body.id);
    expect(afterReset.status).toBe(200);
    expect(afterReset.body.status).toBe('running');

    provider.release();
    let final: any;
    for (let i = 0; i < 120 && !final; i++) {
      const polled = await getTask(created.body.id);
      if (polled.body.status === 'succeeded' || polled.body.status === 'failed') final = polled.body;
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(final).toMatchObject({ status: 'succeeded', output: { summary: 'The provider summary.' } });
  });
});

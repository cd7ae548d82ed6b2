import { Connection } from '@temporalio/client';
import { taskWorkflowId } from '../../src/contract';
import { AssayHarness } from '../support/assay-harness';
import { HeldProvider } from '../support/held-provider';
import { bearer, http as request } from '../support/http';
import { resetToFirstWorkflowTask } from '../support/operator-reset';
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

    await resetToFirstWorkflowTask(connection, SANDBOX_NAMESPACE, taskWorkflowId('acme', created.body.id));
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

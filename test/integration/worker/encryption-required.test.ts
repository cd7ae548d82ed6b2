import { Client, Connection } from '@temporalio/client';
import { assessmentWorkflowId } from '../../../src/contract';
import { AssayHarness } from '../../support/assay-harness';
import { eventually } from '../../support/eventually';
import { SINGLE_ZONE_GRAPH } from '../../support/graphs';
import { bearer, http } from '../../support/http';
import { PRODUCTION_NAMESPACE } from '../../support/test-temporal';

let harness: AssayHarness;
let connection: Connection;

beforeAll(async () => {
  // Its worker has no encryption keys and may not keep production in plaintext.
  harness = await AssayHarness.start({ env: { PAYLOAD_ENCRYPTION: 'required' } });
  connection = await Connection.connect({ address: harness.temporal.address });
});

afterAll(async () => {
  await connection?.close();
  await harness?.stop();
});

describe('a worker without encryption keys', () => {
  it('fails every production activity before it runs, retryably, with ENCRYPTION_REQUIRED', async () => {
    // A live assessment stored in plaintext by an API told to (PAYLOAD_ENCRYPTION=off), its key issued after the worker started.
    const consenting = await harness.startApi({ PAYLOAD_ENCRYPTION: 'off' });
    const live = (await harness.issueKey('acme', 'live')).key;
    const created = await http(`${consenting}/v1/network-assessments`, { method: 'POST', headers: bearer(live), json: { name: 'Web shop', ...SINGLE_ZONE_GRAPH } });
    expect(created.status).toBe(202);

    const handle = new Client({ connection, namespace: PRODUCTION_NAMESPACE }).workflow.getHandle(assessmentWorkflowId('acme', created.body.assessment_id));
    const retried = await eventually(
      async () => (await handle.describe()).raw.pendingActivities ?? [],
      (activities) => activities.length > 0 && activities.every((activity) => (activity.attempt ?? 0) >= 2),
      'the checks to be tried again',
    );
    for (const activity of retried) {
      expect(activity.lastFailure?.applicationFailureInfo).toMatchObject({ type: 'ENCRYPTION_REQUIRED', nonRetryable: false });
    }
    expect((await http(`${consenting}/v1/network-assessments/${created.body.assessment_id}`, { headers: bearer(live) })).body.findings).toBeUndefined();
  });
});

import { Client, Connection } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { assessmentWorkflowId } from '../../src/contract';
import { AssayHarness } from '../support/assay-harness';
import { eventually } from '../support/eventually';
import { SINGLE_ZONE_GRAPH } from '../support/graphs';
import { bearer, http } from '../support/http';
import { SANDBOX_NAMESPACE } from '../support/test-temporal';

const ARCHITECTURE = { name: 'Web shop', context: 'Checkout for the EU shop.', ...SINGLE_ZONE_GRAPH };

let harness: AssayHarness;
let connection: Connection;
let client: Client;
let customerKey: string;
let alice: { id: string; credential: string };
let bob: { id: string; credential: string };

beforeAll(async () => {
  harness = await AssayHarness.start();
  connection = await Connection.connect({ address: harness.temporal.address });
  client = new Client({ connection, namespace: SANDBOX_NAMESPACE });
  customerKey = (await harness.issueKey('acme', 'test')).key;
  alice = await harness.addReviewer('alice');
  bob = await harness.addReviewer('bob');
});

afterAll(async () => {
  await connection?.close();
  await harness?.stop();
});

function review(path: string, credential: string | undefined, json?: unknown) {
  const headers = credential === undefined ? {} : bearer(credential);
  const method = path.endsWith('/claim') || path.endsWith('/release') || path.endsWith('/complete') ? 'POST' : 'GET';
  return http(`${harness.baseUrl}/v1/review/${path}`, { method, headers, json });
}

/** An assessment whose automated checks have run, so it can be claimed. */
async function checkedAssessment(): Promise<string> {
  const created = await http(`${harness.baseUrl}/v1/network-assessments`, { method: 'POST', headers: bearer(customerKey), json: ARCHITECTURE });
  expect(created.status).toBe(202);
  const id: string = created.body.assessment_id;
  await eventually(
    () => http(`${harness.baseUrl}/v1/network-assessments/${id}`, { headers: bearer(customerKey) }),
    (response) => Array.isArray(response.body.findings),
    `the checks of ${id}`,
  );
  return id;
}

function expectErrorBody(response: { status: number; body: any }, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ error: { code, message: expect.any(String), request_id: expect.stringMatching(/^req_/) } });
}

describe('who may review', () => {
  it('refuses a claim with a customer API key (403), with no credential (401) and with a revoked credential (401), changing nothing', async () => {
    const id = await checkedAssessment();
    expectErrorBody(await review(`assessments/${id}/claim`, customerKey), 403, 'FORBIDDEN');
    expectErrorBody(await review(`assessments/${id}/claim`, undefined), 401, 'UNAUTHORIZED');
    const carol = await harness.addReviewer('carol');
    expect((await review('me', carol.credential)).status).toBe(200);
    await (await harness.reviewerService()).revoke(carol.id, 'left the team');
    // The API caches lookups for KEY_CACHE_TTL_MS (200 ms here): a revoked credential fails within it.
    await eventually(() => review('me', carol.credential), (response) => response.status === 401, 'the revocation to reach the API');
    expectErrorBody(await review(`assessments/${id}/claim`, carol.credential), 401, 'UNAUTHORIZED');
    expectErrorBody(await review(`assessments/${id}/claim`, 'assay_rvw_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), 401, 'UNAUTHORIZED');
    expect((await http(`${harness.baseUrl}/v1/network-assessments/${id}`, { headers: bearer(customerKey) })).body.status).toBe('submitted');
  });

  it('refuses a reviewer credential on every customer operation with 403', async () => {
    const tasks = await http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(alice.credential), json: { task_type: 'summarize', input: { text: 'One. Two.' } } });
    expectErrorBody(tasks, 403, 'FORBIDDEN');
    expectErrorBody(await http(`${harness.baseUrl}/v1/network-assessments`, { headers: bearer(alice.credential) }), 403, 'FORBIDDEN');
    expectErrorBody(await http(`${harness.baseUrl}/v1/webhook-endpoints`, { headers: bearer(alice.credential) }), 403, 'FORBIDDEN');
  });

  it('says who a credential belongs to', async () => {
    expect(await review('me', alice.credential)).toMatchObject({ status: 200, body: { reviewer_id: alice.id, name: 'alice', environment: 'test' } });
  });
});

describe('the review through the API', () => {
  it('records the authenticated reviewer in the workflow history and in GET; the body cannot name another', async () => {
    const id = await checkedAssessment();
    const claimed = await review(`assessments/${id}/claim`, alice.credential);
    expect(claimed).toMatchObject({ status: 200, body: { status: 'under_review', claim: { reviewer: 'alice' } } });

    expectErrorBody(await review(`assessments/${id}/complete`, alice.credential, { verdict: 'approved', notes: 'Fine.', reviewer: 'bob' }), 400, 'INVALID_REQUEST');
    const byBob = await review(`assessments/${id}/complete`, bob.credential, { verdict: 'approved', notes: 'Fine.' });
    expectErrorBody(byBob, 409, 'REVIEW_REFUSED');
    expect(byBob.body.error.message).toMatch(/^CLAIMED_BY_ANOTHER_REVIEWER: Claimed by alice, not bob/);

    const completed = await review(`assessments/${id}/complete`, alice.credential, { verdict: 'changes_requested', notes: 'Add a second zone.' });
    expect(completed).toMatchObject({ status: 200, body: { status: 'completed', review: { verdict: 'changes_requested', reviewer: 'alice' } } });
    const customerView = await http(`${harness.baseUrl}/v1/network-assessments/${id}`, { headers: bearer(customerKey) });
    expect(customerView.body).toMatchObject({ status: 'completed', review: { verdict: 'changes_requested', notes: 'Add a second zone.', reviewer: 'alice' } });

    const history = await client.workflow.getHandle(assessmentWorkflowId('acme', id)).fetchHistory();
    const accepted = (history.events ?? []).flatMap((event) => {
      const request = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest;
      if (!request) return [];
      const [argument] = (request.input?.args?.payloads ?? []).map((payload) => defaultPayloadConverter.fromPayload(payload));
      return [{ update: request.input?.name, argument }];
    });
    expect(accepted).toEqual([
      { update: 'claimAssessment', argument: { reviewer: 'alice' } },
      { update: 'completeAssessment', argument: { verdict: 'changes_requested', notes: 'Add a second zone.', reviewer: 'alice' } },
    ]);
  });

  it('shows the queue earliest deadline first with claims, and a reviewer view with context and graph', async () => {
    const first = await checkedAssessment();
    const second = await checkedAssessment();
    await review(`assessments/${second}/claim`, bob.credential);
    type QueueItem = { assessment_id: string; organization_id: string; due_at: string; claim?: { reviewer: string } };
    const queue = await eventually(
      async () => (await review('assessments', alice.credential)).body.data as QueueItem[],
      (items) => items.some((item) => item.assessment_id === first) && items.some((item) => item.assessment_id === second && item.claim !== undefined),
      'both assessments in the queue, the second claimed',
    );
    const dueAts = queue.map((item) => item.due_at);
    expect(dueAts).toEqual([...dueAts].sort());
    expect(queue.find((item) => item.assessment_id === first)).toMatchObject({ organization_id: 'acme' });
    expect(queue.find((item) => item.assessment_id === first)?.claim).toBeUndefined();
    expect(queue.find((item) => item.assessment_id === second)).toMatchObject({ claim: { reviewer: 'bob' } });
    const shown = await review(`assessments/${second}`, alice.credential);
    expect(shown).toMatchObject({ status: 200, body: { assessment_id: second, context: ARCHITECTURE.context, graph: { components: ARCHITECTURE.components }, claim: { reviewer: 'bob' } } });
    expectErrorBody(await review('assessments/asmt_01JAAAAAAAAAAAAAAAAAAAAAAA', alice.credential), 404, 'NOT_FOUND');
  });

  it('puts the review operations in the OpenAPI document under the reviewer credential scheme', async () => {
    const document = (await http(`${harness.baseUrl}/openapi.json`)).body;
    expect(document.components.securitySchemes.reviewerCredential).toMatchObject({ type: 'http', scheme: 'bearer' });
    const claim = document.paths['/v1/review/assessments/{assessment_id}/claim'].post;
    expect(claim.security).toEqual([{ reviewerCredential: [] }]);
    expect(Object.keys(claim.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404', '409', '504']));
  });
});

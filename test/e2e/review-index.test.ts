import Database from 'better-sqlite3';
import { Client, Connection } from '@temporalio/client';
import { TemporalClients } from '../../src/api/platform/temporal/temporal-clients';
import { assessmentWorkflowId, claimAssessmentUpdate } from '../../src/contract';
import { AssayHarness } from '../support/assay-harness';
import { eventually } from '../support/eventually';
import { TINY_GRAPH } from '../support/graphs';
import { bearer, http, type HttpResult } from '../support/http';
import { SANDBOX_NAMESPACE } from '../support/test-temporal';

// Unclaimed assessments are overdue two seconds after they are created; a claim's deadline (the
// review SLA, 5 days) is not, so the overdue filter has both kinds to tell apart.
const CLAIM_SLA = '2s';
const ORGANISATIONS = ['north', 'south', 'east'];

let harness: AssayHarness;
let connection: Connection;
let temporal: Client;
const keys: Record<string, string> = {};
const reviewers: Record<string, string> = {};
/** Calls of the API's own Temporal client, by RPC, in the sandbox namespace. */
let apiCalls: (rpc: 'listWorkflowExecutions' | 'getWorkflowExecutionHistory') => number;

beforeAll(async () => {
  harness = await AssayHarness.start({ env: { ASSESSMENT_CLAIM_SLA: CLAIM_SLA } });
  connection = await Connection.connect({ address: harness.temporal.address });
  temporal = new Client({ connection, namespace: SANDBOX_NAMESPACE });
  for (const organisation of ORGANISATIONS) keys[organisation] = (await harness.issueKey(organisation, 'test')).key;
  for (const name of ['alice', 'bob', 'carol', 'dave', 'erin']) reviewers[name] = (await harness.addReviewer(name)).credential;
  const service = harness.apiProvider(TemporalClients).client('test').workflowService;
  const spies = { listWorkflowExecutions: jest.spyOn(service, 'listWorkflowExecutions'), getWorkflowExecutionHistory: jest.spyOn(service, 'getWorkflowExecutionHistory') };
  apiCalls = (rpc) => (spies[rpc].mock.calls as Array<[{ namespace?: string | null }]>).filter(([request]) => request.namespace === SANDBOX_NAMESPACE).length;
});

afterAll(async () => {
  await connection?.close();
  await harness?.stop();
});

interface Created {
  id: string;
  organisation: string;
}

async function create(organisation: string, name = 'Shop'): Promise<Created> {
  const response = await http(`${harness.baseUrl}/v1/network-assessments`, { method: 'POST', headers: bearer(keys[organisation]), json: { name, context: '', ...TINY_GRAPH } });
  expect(response.status).toBe(202);
  return { id: response.body.assessment_id, organisation };
}

/** `count` assessments spread over the organisations, each with its automated checks run (so it can be claimed). */
async function checkedAssessments(count: number): Promise<Created[]> {
  const created = await Promise.all(Array.from({ length: count }, (_, index) => create(ORGANISATIONS[index % ORGANISATIONS.length], `Shop ${index}`)));
  await Promise.all(
    created.map(({ id, organisation }) =>
      eventually(() => http(`${harness.baseUrl}/v1/network-assessments/${id}`, { headers: bearer(keys[organisation]) }), (response) => Array.isArray(response.body.findings), `the checks of ${id}`),
    ),
  );
  return created;
}

function review(path: string, reviewer: string, method: 'GET' | 'POST' = 'GET', json?: unknown): Promise<HttpResult> {
  return http(`${harness.baseUrl}/v1/review/${path}`, { method, headers: bearer(reviewers[reviewer]), json });
}

interface QueueItem {
  assessment_id: string;
  organization_id: string;
  status: string;
  created_at: string;
  due_at: string;
  claim?: { reviewer: string };
}

/** Every page of the queue with these filters, following next_cursor. */
async function wholeQueue(reviewer: string, filters: Record<string, string> = {}, limit = 4): Promise<{ items: QueueItem[]; pages: number }> {
  const items: QueueItem[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query = new URLSearchParams({ ...filters, limit: String(limit), ...(cursor ? { cursor } : {}) });
    const page = await review(`assessments?${query}`, reviewer);
    expect(page.status).toBe(200);
    expect(page.body.data.length).toBeLessThanOrEqual(limit);
    items.push(...page.body.data);
    cursor = page.body.next_cursor;
    expect(page.body.has_more).toBe(cursor !== null);
    pages++;
  } while (cursor);
  return { items, pages };
}

/** The index as the database holds it, opened beside the API (SQLite in WAL mode), to stage what the API alone would never write. */
function withIndexDatabase<T>(use: (db: Database.Database) => T): T {
  const db = new Database(harness.config.keyDatabasePath);
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/** A lookup that misses the index catches it up from visibility before answering 404; afterwards the index is fresh for a minute. */
async function catchUpNow(): Promise<void> {
  expect((await review('assessments/asmt_01JAAAAAAAAAAAAAAAAAAAAAAA', 'alice')).status).toBe(404);
}

describe('finding an assessment', () => {
  it('acts on one among many across organisations without listing visibility', async () => {
    const created = await checkedAssessments(24);
    const target = created[13];
    const listsBefore = apiCalls('listWorkflowExecutions');

    expect(await review(`assessments/${target.id}`, 'alice')).toMatchObject({ status: 200, body: { assessment_id: target.id, organization_id: target.organisation, graph: TINY_GRAPH } });
    expect(await review(`assessments/${target.id}/claim`, 'alice', 'POST')).toMatchObject({ status: 200, body: { status: 'under_review', claim: { reviewer: 'alice' } } });
    expect(await review(`assessments/${target.id}/release`, 'alice', 'POST')).toMatchObject({ status: 200, body: { status: 'under_review', stage: 'review' } });

    expect(apiCalls('listWorkflowExecutions')).toBe(listsBefore);
  });

  it('finds an assessment from before the index (no row, no catch-up ever), and the queue holds it; once indexed, without visibility', async () => {
    const [old] = await checkedAssessments(1);
    withIndexDatabase((db) => {
      db.prepare('DELETE FROM assessment_index WHERE assessment_id = ?').run(old.id);
      db.prepare('DELETE FROM assessment_index_progress').run();
    });

    expect(await review(`assessments/${old.id}`, 'bob')).toMatchObject({ status: 200, body: { assessment_id: old.id, organization_id: old.organisation } });
    const queued = await wholeQueue('bob', {}, 100);
    expect(queued.items.map((item) => item.assessment_id)).toContain(old.id);

    const listsBefore = apiCalls('listWorkflowExecutions');
    expect(await review(`assessments/${old.id}/claim`, 'bob', 'POST')).toMatchObject({ status: 200, body: { claim: { reviewer: 'bob' } } });
    expect((await review(`assessments/${old.id}`, 'bob')).body.claim).toEqual({ reviewer: 'bob', claimed_at: expect.any(String) });
    expect(apiCalls('listWorkflowExecutions')).toBe(listsBefore);
  });

  it('answers 404 for an id no assessment has, and for one whose workflow was erased', async () => {
    const [erased] = await checkedAssessments(1);
    expect((await http(`${harness.baseUrl}/v1/network-assessments/${erased.id}`, { method: 'DELETE', headers: bearer(keys[erased.organisation]) })).status).toBe(204);
    expect((await review(`assessments/${erased.id}`, 'alice')).status).toBe(404);
    expect((await review(`assessments/${erased.id}/claim`, 'alice', 'POST')).status).toBe(404);
    await catchUpNow();
  });
});

describe('the submitted architecture', () => {
  it('is read from the history once, then from memory while the live state still comes from the workflow', async () => {
    const [shown] = await checkedAssessments(1);
    const readsBefore = apiCalls('getWorkflowExecutionHistory');
    const first = await review(`assessments/${shown.id}`, 'carol');
    expect(first).toMatchObject({ status: 200, body: { status: 'submitted', graph: TINY_GRAPH, context: '' } });
    expect(apiCalls('getWorkflowExecutionHistory')).toBe(readsBefore + 1);

    await review(`assessments/${shown.id}/claim`, 'carol', 'POST');
    const refreshes = await Promise.all([1, 2, 3].map(() => review(`assessments/${shown.id}`, 'carol')));
    for (const refresh of refreshes) expect(refresh.body).toMatchObject({ status: 'under_review', claim: { reviewer: 'carol' }, graph: TINY_GRAPH });
    expect(apiCalls('getWorkflowExecutionHistory')).toBe(readsBefore + 1);
  });
});

describe('the review queue, a page at a time', () => {
  it('pages every open assessment once, earliest deadline first, with no call to visibility', async () => {
    const created = await checkedAssessments(9);
    await review(`assessments/${created[4].id}/claim`, 'dave', 'POST');
    // One pass reads every row from its workflow, which settles each first deadline on the workflow's own.
    await wholeQueue('dave');
    await catchUpNow();
    const listsBefore = apiCalls('listWorkflowExecutions');

    const { items, pages } = await wholeQueue('dave', {}, 4);

    expect(apiCalls('listWorkflowExecutions')).toBe(listsBefore);
    const ids = items.map((item) => item.assessment_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(created.map(({ id }) => id)));
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(ids.length / 4));
    const order = items.map((item) => `${item.due_at} ${item.created_at}`);
    expect(order).toEqual([...order].sort());
    expect(items.every((item) => item.status !== 'completed')).toBe(true);
  });

  it('filters to what the authenticated reviewer holds, and to what is overdue', async () => {
    const created = await checkedAssessments(5);
    const [mine, alsoMine, theirs, ...unclaimed] = created;
    for (const [assessment, who] of [[mine, 'erin'], [alsoMine, 'erin'], [theirs, 'alice']] as const) {
      expect((await review(`assessments/${assessment.id}/claim`, who, 'POST')).status).toBe(200);
    }

    const held = await wholeQueue('erin', { claimed_by_me: 'true' }, 1);
    expect(held.items.map((item) => item.assessment_id).sort()).toEqual([mine.id, alsoMine.id].sort());
    expect(held.items.every((item) => item.claim?.reviewer === 'erin')).toBe(true);

    // Past the claim SLA: the unclaimed ones are overdue, the claimed ones have days left.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const now = new Date().toISOString();
    const overdue = (await wholeQueue('erin', { overdue: 'true' }, 2)).items;
    const overdueIds = overdue.map((item) => item.assessment_id);
    expect(overdueIds).toEqual(expect.arrayContaining(unclaimed.map(({ id }) => id)));
    for (const claimed of [mine, alsoMine, theirs]) expect(overdueIds).not.toContain(claimed.id);
    expect(overdue.every((item) => item.due_at < now)).toBe(true);

    expect((await wholeQueue('erin', { overdue: 'true', claimed_by_me: 'true' })).items).toEqual([]);
  });

  it('corrects what happened behind its back: a claim sent straight to the workflow, and an operator terminate', async () => {
    const [claimedElsewhere, terminated] = await checkedAssessments(2);
    await temporal.workflow.getHandle(assessmentWorkflowId(claimedElsewhere.organisation, claimedElsewhere.id)).executeUpdate(claimAssessmentUpdate, { args: [{ reviewer: 'dave' }] });
    await temporal.workflow.getHandle(assessmentWorkflowId(terminated.organisation, terminated.id)).terminate('operator');

    const everything = (await wholeQueue('alice', {}, 100)).items;
    expect(everything.find((item) => item.assessment_id === claimedElsewhere.id)).toMatchObject({ status: 'under_review', claim: { reviewer: 'dave' } });
    expect(everything.map((item) => item.assessment_id)).not.toContain(terminated.id);
    // That page moved both rows, so the filters see them as they are.
    const davesIds = (await wholeQueue('dave', { claimed_by_me: 'true' })).items.map((item) => item.assessment_id);
    expect(davesIds).toContain(claimedElsewhere.id);
    const row = withIndexDatabase((db) => db.prepare('SELECT closed_at FROM assessment_index WHERE assessment_id = ?').get(terminated.id)) as { closed_at: string | null };
    expect(row.closed_at).not.toBeNull();
  });

  it('refuses an altered cursor, a cursor of other filters or of another reviewer, and an unknown filter value with 400', async () => {
    const created = await checkedAssessments(3);
    for (const { id } of created.slice(0, 2)) expect((await review(`assessments/${id}/claim`, 'erin', 'POST')).status).toBe(200);
    const first = await review('assessments?limit=1', 'alice');
    const cursor: string = first.body.next_cursor;
    expect(cursor).toEqual(expect.any(String));
    expect((await review(`assessments?limit=1&cursor=${encodeURIComponent(cursor)}`, 'alice')).status).toBe(200);
    const erins: string = (await review('assessments?limit=1&claimed_by_me=true', 'erin')).body.next_cursor;
    expect(erins).toEqual(expect.any(String));

    const [body, tag] = cursor.split('.');
    const altered = `${body.slice(0, -2)}${body.endsWith('AA') ? 'BB' : 'AA'}.${tag}`;
    const refusedQueries = [
      `limit=1&cursor=${encodeURIComponent(altered)}`,
      `limit=1&overdue=true&cursor=${encodeURIComponent(cursor)}`,
      `limit=1&claimed_by_me=true&cursor=${encodeURIComponent(erins)}`,
      'overdue=yes',
      'stage=Not%20a%20stage',
      `limit=1&stage=review&cursor=${encodeURIComponent(cursor)}`,
    ];
    for (const query of refusedQueries) {
      const refused = await review(`assessments?${query}`, 'alice');
      expect({ query, status: refused.status, code: refused.body.error?.code }).toEqual({ query, status: 400, code: 'INVALID_REQUEST' });
    }
  });
});

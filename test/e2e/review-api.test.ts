import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client, Connection } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { createApiApp } from '../../src/api/create-api-app';
import { AppConfig } from '../../src/common/config/app-config';
import { assessmentWorkflowId } from '../../src/contract';
import { AssayHarness } from '../support/assay-harness';
import { eventually } from '../support/eventually';
import { SINGLE_ZONE_GRAPH } from '../support/graphs';
import { bearer, http } from '../support/http';
import { SANDBOX_NAMESPACE } from '../support/test-temporal';

const ARCHITECTURE = { name: 'Web shop', context: 'Checkout for the EU shop.', ...SINGLE_ZONE_GRAPH };
/** Production reviews in two stages, each by its own group, the second four-eyes; the sandbox keeps the default single stage. */
const PIPELINES = {
  live: {
    stages: [
      { name: 'network', group: 'network' },
      { name: 'security', group: 'security', four_eyes: true },
    ],
  },
};

let harness: AssayHarness;
let connection: Connection;
let client: Client;
let customerKey: string;
let alice: { id: string; credential: string };
let bob: { id: string; credential: string };
/** APIs started beside the harness's, with settings of their own. */
const otherApis: NestFastifyApplication[] = [];

beforeAll(async () => {
  harness = await AssayHarness.start({ env: { REVIEW_PIPELINES: JSON.stringify(PIPELINES) } });
  connection = await Connection.connect({ address: harness.temporal.address });
  client = new Client({ connection, namespace: SANDBOX_NAMESPACE });
  customerKey = (await harness.issueKey('acme', 'test')).key;
  alice = await harness.addReviewer('alice');
  bob = await harness.addReviewer('bob');
});

afterAll(async () => {
  await Promise.all(otherApis.map((api) => api.close()));
  await connection?.close();
  await harness?.stop();
});

/** A review operation on the harness's API, or on another one's at `baseUrl`. */
function review(path: string, credential: string | undefined, json?: unknown, baseUrl = harness.baseUrl) {
  const headers = credential === undefined ? {} : bearer(credential);
  const method = path.endsWith('/claim') || path.endsWith('/release') || path.endsWith('/complete') ? 'POST' : 'GET';
  return http(`${baseUrl}/v1/review/${path}`, { method, headers, json });
}

/** Another API on the harness's Temporal, task queue and key store, with the same pipelines and these settings too. */
async function apiWith(env: Record<string, string>): Promise<string> {
  const api = await createApiApp(new AppConfig({ ...harness.sharedEnv(), LOG_LEVEL: 'silent', REVIEW_PIPELINES: JSON.stringify(PIPELINES), ...env }));
  otherApis.push(api);
  await api.listen({ port: 0, host: '127.0.0.1' });
  return api.getUrl();
}

/** An assessment whose automated checks have run, so it can be claimed (in the sandbox unless another key is given). */
async function checkedAssessment(key = customerKey, body: object = ARCHITECTURE): Promise<string> {
  const created = await http(`${harness.baseUrl}/v1/network-assessments`, { method: 'POST', headers: bearer(key), json: body });
  expect(created.status).toBe(202);
  const id: string = created.body.assessment_id;
  await eventually(
    () => http(`${harness.baseUrl}/v1/network-assessments/${id}`, { headers: bearer(key) }),
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
    expect(await review('me', alice.credential)).toEqual(expect.objectContaining({ status: 200, body: { reviewer_id: alice.id, name: 'alice', environment: 'test', groups: [] } }));
    const rita = await (await harness.reviewerService()).add('rita', 'live', ['network', 'security']);
    expect((await review('me', rita.credential)).body).toEqual({ reviewer_id: rita.id, name: 'rita', environment: 'live', groups: ['network', 'security'] });
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
    // The groups come from the credential too (alice has none), never from the request.
    expect(accepted).toEqual([
      { update: 'claimAssessment', argument: { reviewer: 'alice', groups: [] } },
      { update: 'completeAssessment', argument: { verdict: 'changes_requested', notes: 'Add a second zone.', reviewer: 'alice', groups: [] } },
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

  it('filters the queue by stage (the default pipeline has one, `review`) and refuses a malformed one', async () => {
    const id = await checkedAssessment();
    const byStage = await eventually(
      async () => (await review('assessments?stage=review&limit=100', alice.credential)).body.data as Array<{ assessment_id: string }>,
      (items) => items.some((item) => item.assessment_id === id),
      'the assessment in the queue of stage review',
    );
    expect(byStage.length).toBeGreaterThan(0);
    expect((await review('assessments?stage=network&limit=100', alice.credential)).body.data).toEqual([]);
    // The default stage has no group, so no group filter finds it.
    expect((await review('assessments?group=network&limit=100', alice.credential)).body.data).toEqual([]);
    expectErrorBody(await review('assessments?stage=Not%20a%20stage', alice.credential), 400, 'INVALID_REQUEST');
  });

  it('puts the review operations in the OpenAPI document under the reviewer credential scheme', async () => {
    const document = (await http(`${harness.baseUrl}/openapi.json`)).body;
    expect(document.components.securitySchemes.reviewerCredential).toMatchObject({ type: 'http', scheme: 'bearer' });
    const claim = document.paths['/v1/review/assessments/{assessment_id}/claim'].post;
    expect(claim.security).toEqual([{ reviewerCredential: [] }]);
    expect(Object.keys(claim.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404', '409', '504']));
  });
});

describe('a pipeline of stages with reviewer groups', () => {
  let liveKey: string;
  const reviewers: Record<string, string> = {};

  beforeAll(async () => {
    liveKey = (await harness.issueKey('acme', 'live')).key;
    const service = await harness.reviewerService();
    for (const [name, groups] of [['nina', ['network']], ['sam', ['security']], ['sara', ['security', 'audit']], ['paul', []]] as const) {
      reviewers[name] = (await service.add(name, 'live', groups)).credential;
    }
  });

  const act = (id: string, action: 'claim' | 'release' | 'complete', reviewer: string, json?: unknown) => review(`assessments/${id}/${action}`, reviewers[reviewer], json);
  const approve = (id: string, reviewer: string) => act(id, 'complete', reviewer, { verdict: 'approved', notes: `Fine by ${reviewer}.` });

  function expectRefused(response: { status: number; body: any }, code: string): void {
    expectErrorBody(response, 409, 'REVIEW_REFUSED');
    expect(response.body.error.message).toMatch(new RegExp(`^${code}: `));
  }

  it("refuses a reviewer without the active stage's group with 409 NOT_IN_STAGE_GROUP, and the same reviewer's second approval with 409 FOUR_EYES", async () => {
    const id = await checkedAssessment(liveKey);
    // Until it reaches a stage of theirs they do not see it, so it is not found (what a reviewer sees, below).
    expectErrorBody(await act(id, 'claim', 'sam'), 404, 'NOT_FOUND');
    // A credential without groups acts only on stages without one.
    expectErrorBody(await act(id, 'claim', 'paul'), 404, 'NOT_FOUND');

    expect(await act(id, 'claim', 'nina')).toMatchObject({ status: 200, body: { status: 'under_review', stage: 'network', claim: { reviewer: 'nina' } } });
    expect(await approve(id, 'nina')).toMatchObject({ status: 200, body: { status: 'under_review', stage: 'security' } });
    expectRefused(await act(id, 'claim', 'nina'), 'NOT_IN_STAGE_GROUP');

    expect(await act(id, 'claim', 'sam')).toMatchObject({ status: 200, body: { stage: 'security', claim: { reviewer: 'sam' } } });
    const firstApproval = await approve(id, 'sam');
    expect(firstApproval).toMatchObject({ status: 200, body: { status: 'under_review', stage: 'security' } });
    expect(firstApproval.body.claim).toBeUndefined();
    expectRefused(await act(id, 'claim', 'sam'), 'FOUR_EYES');

    expect(await act(id, 'claim', 'sara')).toMatchObject({ status: 200, body: { claim: { reviewer: 'sara' } } });
    expect(await approve(id, 'sara')).toMatchObject({ status: 200, body: { status: 'completed', review: { verdict: 'approved', reviewer: 'sara' } } });
    const stages = (await http(`${harness.baseUrl}/v1/network-assessments/${id}`, { headers: bearer(liveKey) })).body.stages as Array<{ name: string; state: string; reviews: Array<{ reviewer: string }> }>;
    expect(stages.map(({ name, state, reviews }) => ({ name, state, reviewers: reviews.map((given) => given.reviewer) }))).toEqual([
      { name: 'network', state: 'approved', reviewers: ['nina'] },
      { name: 'security', state: 'approved', reviewers: ['sam', 'sara'] },
    ]);
  });

  it('filters the queue by the active stage and by its group, a cursor staying with its filters', async () => {
    const inNetwork = await checkedAssessment(liveKey);
    const inSecurity = await checkedAssessment(liveKey);
    const another = await checkedAssessment(liveKey);
    await act(inSecurity, 'claim', 'nina');
    expect(await approve(inSecurity, 'nina')).toMatchObject({ status: 200, body: { stage: 'security' } });

    // nina's group has the first stage, so she sees every assessment of this pipeline, at her stage or past it.
    const idsOf = async (query: string) => ((await review(`assessments?${query}`, reviewers.nina)).body.data as Array<{ assessment_id: string }>).map((item) => item.assessment_id);
    const mine = [inNetwork, inSecurity, another];
    const ours = (ids: string[]) => ids.filter((id) => mine.includes(id));
    await eventually(() => idsOf('limit=100'), (ids) => mine.every((id) => ids.includes(id)), 'the three assessments in the queue');

    expect(ours(await idsOf('stage=security&limit=100'))).toEqual([inSecurity]);
    expect(ours(await idsOf('group=security&limit=100'))).toEqual([inSecurity]);
    expect(ours(await idsOf('stage=network&group=network&limit=100')).sort()).toEqual([inNetwork, another].sort());
    expect(ours(await idsOf('stage=network&group=security&limit=100'))).toEqual([]);
    expect(ours(await idsOf('group=audit&limit=100'))).toEqual([]);

    // Page by page through the network stage: each page keeps the filter, and a cursor is refused with another one.
    const first = (await review('assessments?stage=network&limit=1', reviewers.nina)).body;
    expect(first).toMatchObject({ data: [expect.anything()], has_more: true, next_cursor: expect.any(String) });
    const seen: string[] = first.data.map((item: { assessment_id: string }) => item.assessment_id);
    let cursor: string | null = first.next_cursor;
    while (cursor !== null) {
      const page = (await review(`assessments?stage=network&limit=1&cursor=${encodeURIComponent(cursor)}`, reviewers.nina)).body;
      seen.push(...page.data.map((item: { assessment_id: string }) => item.assessment_id));
      cursor = page.next_cursor;
    }
    expect(seen).not.toContain(inSecurity);
    expect(ours(seen).sort()).toEqual([inNetwork, another].sort());
    expectErrorBody(await review(`assessments?stage=security&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`, reviewers.nina), 400, 'INVALID_REQUEST');
  });

  describe('what a reviewer sees', () => {
    const queued = async (reviewer: string, baseUrl = harness.baseUrl) =>
      ((await review('assessments?limit=100', reviewers[reviewer], undefined, baseUrl)).body.data as Array<{ assessment_id: string }>).map((item) => item.assessment_id);
    const shown = (id: string, reviewer: string, baseUrl = harness.baseUrl) => review(`assessments/${id}`, reviewers[reviewer], undefined, baseUrl);

    /** 404 with the very body an id nobody created gets, so a hidden assessment cannot be told from none. */
    async function expectAsUnknown(id: string, ask: (id: string) => ReturnType<typeof review>): Promise<void> {
      const unknownId = 'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA';
      const hidden = await ask(id);
      const unknown = await ask(unknownId);
      expectErrorBody(hidden, 404, 'NOT_FOUND');
      expect({ ...hidden.body.error, request_id: undefined }).toEqual({ ...unknown.body.error, message: unknown.body.error.message.replace(unknownId, id), request_id: undefined });
    }

    async function expectHidden(id: string, reviewer: string): Promise<void> {
      await expectAsUnknown(id, (asked) => shown(asked, reviewer));
      expect(await queued(reviewer)).not.toContain(id);
    }

    /** Each action, as `credential`: answered as for an id nobody created, whatever the workflow would have said. */
    async function expectActionsHidden(id: string, credential: string): Promise<void> {
      const actions = [['claim'], ['release'], ['complete', { verdict: 'approved', notes: 'Fine.' }]] as const;
      for (const [action, json] of actions) await expectAsUnknown(id, (asked) => review(`assessments/${asked}/${action}`, credential, json));
    }

    it('hides an assessment from a reviewer of the second stage until the first stage passes, then shows it in the queue and GET', async () => {
      const id = await checkedAssessment(liveKey);
      await eventually(() => queued('nina'), (ids) => ids.includes(id), 'the assessment in the queue of its first stage');
      expect(await shown(id, 'nina')).toMatchObject({ status: 200, body: { assessment_id: id, stage: 'network' } });
      await expectHidden(id, 'sam');
      // A credential without groups sees only stages without one: none in this pipeline.
      await expectHidden(id, 'paul');

      await act(id, 'claim', 'nina');
      expect(await approve(id, 'nina')).toMatchObject({ status: 200, body: { stage: 'security' } });
      expect(await shown(id, 'sam')).toMatchObject({ status: 200, body: { assessment_id: id, stage: 'security' } });
      expect(await queued('sam')).toContain(id);
      // Past her stage, nina still sees it, though she may no longer act on it.
      expect(await shown(id, 'nina')).toMatchObject({ status: 200, body: { stage: 'security' } });
      expect(await queued('nina')).toContain(id);
      await expectHidden(id, 'paul');
    });

    it('keeps an assessment whose first stage ended the review from the second stage’s group', async () => {
      const id = await checkedAssessment(liveKey);
      await act(id, 'claim', 'nina');
      expect(await act(id, 'complete', 'nina', { verdict: 'rejected', notes: 'No.' })).toMatchObject({ status: 200, body: { status: 'completed' } });
      expect(await shown(id, 'nina')).toMatchObject({ status: 200, body: { status: 'completed' } });
      await expectHidden(id, 'sam');
    });

    it('answers every action on an assessment out of sight as on an unknown id, not with the refusal that says it exists', async () => {
      const atNetwork = await checkedAssessment(liveKey);
      const endedAtNetwork = await checkedAssessment(liveKey);
      await act(endedAtNetwork, 'claim', 'nina');
      expect(await act(endedAtNetwork, 'complete', 'nina', { verdict: 'rejected', notes: 'No.' })).toMatchObject({ status: 200, body: { status: 'completed' } });
      for (const id of [atNetwork, endedAtNetwork]) {
        for (const reviewer of ['sam', 'paul']) await expectActionsHidden(id, reviewers[reviewer]);
      }
      // Nothing changed: the first waits at network for its group.
      expect(await act(atNetwork, 'claim', 'nina')).toMatchObject({ status: 200, body: { stage: 'network', claim: { reviewer: 'nina' } } });
    });

    it('lets no action through on an assessment out of sight, not even a claim its reviewer held with an earlier credential', async () => {
      const service = await harness.reviewerService();
      const nora = await service.add('nora', 'live', ['network']);
      const id = await checkedAssessment(liveKey);
      expect(await review(`assessments/${id}/claim`, nora.credential)).toMatchObject({ status: 200, body: { claim: { reviewer: 'nora' } } });
      // Groups are fixed with a credential: nora moves to security with a new one, the old revoked first.
      await service.revoke(nora.id, 'moved to security');
      const noraInSecurity = await service.add('nora', 'live', ['security']);
      // Claiming again what one holds, and releasing it, go by name: the workflow alone would accept both.
      await expectActionsHidden(id, noraInSecurity.credential);
      expect(await shown(id, 'nina')).toMatchObject({ status: 200, body: { status: 'under_review', claim: { reviewer: 'nora' } } });
    });

    it('leaves out of a revision the link to, and the diff against, an original out of sight', async () => {
      // Changes requested at network: the original never reaches security.
      const original = await checkedAssessment(liveKey);
      await act(original, 'claim', 'nina');
      expect(await act(original, 'complete', 'nina', { verdict: 'changes_requested', notes: 'Add a second zone.' })).toMatchObject({ status: 200 });
      const revision = await checkedAssessment(liveKey, { ...ARCHITECTURE, revision_of: original });
      await act(revision, 'claim', 'nina');
      expect(await approve(revision, 'nina')).toMatchObject({ status: 200, body: { stage: 'security' } });

      expect(await shown(revision, 'nina')).toMatchObject({ status: 200, body: { revision_of: original, revision: { of: original } } });
      const forSam = await shown(revision, 'sam');
      expect(forSam).toMatchObject({ status: 200, body: { assessment_id: revision, revision_of: null, revised_by: null } });
      expect(forSam.body).not.toHaveProperty('revision');
      expect(JSON.stringify(forSam.body)).not.toContain(original);
      await expectHidden(original, 'sam');
    });

    it('leaves out of an original the link to its revision until the revision comes into sight', async () => {
      // Changes requested at security: sam sees the original, and its revision once that passes network.
      const original = await checkedAssessment(liveKey);
      await act(original, 'claim', 'nina');
      await approve(original, 'nina');
      await act(original, 'claim', 'sam');
      expect(await act(original, 'complete', 'sam', { verdict: 'changes_requested', notes: 'Encrypt the links.' })).toMatchObject({ status: 200, body: { status: 'completed' } });
      const revision = await checkedAssessment(liveKey, { ...ARCHITECTURE, revision_of: original });

      expect(await shown(original, 'nina')).toMatchObject({ status: 200, body: { revised_by: revision } });
      expect(await shown(original, 'sam')).toMatchObject({ status: 200, body: { revision_of: null, revised_by: null } });
      await act(revision, 'claim', 'nina');
      await approve(revision, 'nina');
      expect(await shown(original, 'sam')).toMatchObject({ status: 200, body: { revised_by: revision } });
      expect(await shown(revision, 'sam')).toMatchObject({ status: 200, body: { revision_of: original, revision: { of: original } } });
    });

    it('shows every assessment to every reviewer with REVIEWERS_SEE_ALL_STAGES=true', async () => {
      const seeingAll = await apiWith({ REVIEWERS_SEE_ALL_STAGES: 'true' });
      const id = await checkedAssessment(liveKey);
      for (const reviewer of ['sam', 'paul']) {
        await eventually(() => queued(reviewer, seeingAll), (ids) => ids.includes(id), `the assessment in ${reviewer}'s queue`);
        expect(await shown(id, reviewer, seeingAll)).toMatchObject({ status: 200, body: { assessment_id: id, stage: 'network' } });
      }
      // Sight is not a right to act: the stage still refuses a reviewer outside its group.
      expectRefused(await review(`assessments/${id}/claim`, reviewers.sam, undefined, seeingAll), 'NOT_IN_STAGE_GROUP');
      await expectHidden(id, 'sam');
    });
  });
});

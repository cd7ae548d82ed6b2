import { randomUUID } from 'node:crypto';
import { Command, CommanderError } from 'commander';
import { ExitCode } from '../../src/cli/exit-codes';
import { registerReviewCommands } from '../../src/cli/reviewer/review-commands';
import type { ReviewCommandDeps } from '../../src/cli/reviewer/review-command-deps';
import { generateEncryptionKeyEntry } from '../../src/common/crypto/encryption-keys';
import { assessmentIdForIdempotencyKey } from '../../src/common/ids/assessment-ids';
import { AssayHarness } from '../support/assay-harness';
import { SINGLE_ZONE_GRAPH, largestAcceptedArchitecture } from '../support/graphs';
import { bearer, http } from '../support/http';

// Short enough that one test can watch the escalation appear; the others do not depend on it.
const CLAIM_SLA = '3s';

const ARCHITECTURE = {
  name: 'Web shop',
  context: 'Checkout for the EU shop; peak 2,000 orders a minute.',
  ...SINGLE_ZONE_GRAPH,
};

let harness: AssayHarness;
let key: string;
let assessmentsUrl: string;
/** Reviewer credentials by name, as `assay reviewers add` printed them. */
const reviewers: Record<string, string> = {};

beforeAll(async () => {
  // Encrypted payloads: the reviewer's reads through the API decode them with the same keys.
  harness = await AssayHarness.start({ env: { ASSESSMENT_CLAIM_SLA: CLAIM_SLA, REVIEW_UPDATE_TIMEOUT_MS: '8000', PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('assessments') } });
  key = (await harness.issueKey('acme', 'test')).key;
  assessmentsUrl = `${harness.baseUrl}/v1/network-assessments`;
  for (const name of ['alice', 'bob']) reviewers[name] = (await harness.addReviewer(name)).credential;
  reviewers['alice-live'] = (await harness.addReviewer('alice', 'live')).credential;
});

afterAll(async () => {
  await harness?.stop();
});

function createAssessment(body: unknown, headers: Record<string, string> = {}, apiKey = key) {
  return http(assessmentsUrl, { method: 'POST', headers: { ...bearer(apiKey), ...headers }, json: body });
}

function getAssessment(id: string, apiKey = key) {
  return http(`${assessmentsUrl}/${id}`, { headers: bearer(apiKey) });
}

async function pollUntil(id: string, done: (body: any) => boolean, apiKey = key): Promise<any> {
  let last: unknown;
  for (let attempt = 0; attempt < 160; attempt++) {
    const { status, body } = await getAssessment(id, apiKey);
    expect(status).toBe(200);
    if (done(body)) return body;
    last = body;
    await new Promise((resolve) => setTimeout(resolve, 125));
  }
  throw new Error(`assessment ${id} never reached the expected state; last saw ${JSON.stringify(last)}`);
}

async function submittedWithFindings(body: unknown = ARCHITECTURE, apiKey = key): Promise<any> {
  const created = await createAssessment(body, {}, apiKey);
  expect(created.status).toBe(202);
  return pollUntil(created.body.assessment_id, (assessment) => Array.isArray(assessment.findings), apiKey);
}

interface CliRun {
  code: number | undefined;
  stdout: string;
  stderr: string;
}

/** Runs `assay assessments <args>` in-process as the reviewer `who` (none: no credential), against the harness's API. */
async function assay(who: string | undefined, ...args: string[]): Promise<CliRun> {
  const run: CliRun = { code: undefined, stdout: '', stderr: '' };
  const deps: ReviewCommandDeps = {
    env: { ASSAY_BASE_URL: harness.baseUrl, ...(who ? { ASSAY_REVIEWER_CREDENTIAL: reviewers[who] } : {}) },
    stdout: { write: (text) => (run.stdout += text) },
    stderr: { write: (text) => (run.stderr += text) },
    exit: (code) => {
      run.code ??= code;
    },
    actionTimeoutMs: 10_000,
  };
  const program = new Command('assay').exitOverride().configureOutput({ writeOut: (text) => (run.stdout += text), writeErr: (text) => (run.stderr += text) });
  registerReviewCommands(program.command('assessments'), deps);
  await program.parseAsync(['assessments', ...args], { from: 'user' }).catch((error: unknown) => {
    if (!(error instanceof CommanderError)) throw error;
  });
  return run;
}

const alice = (...args: string[]) => assay('alice', ...args);
const bob = (...args: string[]) => assay('bob', ...args);

/** `assay assessments pending --all --json`, repeated until `done`. */
async function pendingUntil(done: (queue: any[]) => boolean): Promise<any[]> {
  for (let attempt = 0; ; attempt++) {
    const run = await alice('pending', '--all', '--json');
    expect(run.code).toBe(0);
    const queue = JSON.parse(run.stdout).data;
    if (done(queue) || attempt === 40) return queue;
    await new Promise((resolve) => setTimeout(resolve, 125));
  }
}

describe('POST /v1/network-assessments', () => {
  it('accepts an architecture with 202, a Location header and status submitted', async () => {
    const response = await createAssessment(ARCHITECTURE);
    expect(response.status).toBe(202);
    expect(response.body).toEqual({
      assessment_id: expect.stringMatching(/^asmt_[0-7][0-9A-HJKMNP-TV-Z]{25}$/),
      name: 'Web shop',
      status: 'submitted',
      created_at: expect.any(String),
      updated_at: response.body.created_at,
      expires_at: null,
      escalations: [],
      revision_of: null,
      revised_by: null,
    });
    expect(response.headers.get('location')).toBe(`/v1/network-assessments/${response.body.assessment_id}`);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('accepts the largest architecture, 2,000 components and 10,000 links, even pretty-printed, and checks it', async () => {
    const body = JSON.stringify(largestAcceptedArchitecture(), null, 2);
    const response = await http(assessmentsUrl, { method: 'POST', headers: { ...bearer(key), 'content-type': 'application/json' }, body });
    expect(response.status).toBe(202);
    const checked = await pollUntil(response.body.assessment_id, (assessment) => Array.isArray(assessment.findings));
    expect(checked.findings.length).toBeGreaterThan(0);
  });
});

describe('GET /v1/network-assessments/{assessment_id}', () => {
  it('shows the automated findings once the checks ran, with severity and component ids', async () => {
    const assessment = await submittedWithFindings();
    expect(assessment.status).toBe('submitted');
    expect(assessment.findings).toEqual(
      expect.arrayContaining([
        { check: 'missing_redundancy', severity: 'high', message: expect.stringContaining("'db'"), component_ids: ['db'] },
        { check: 'no_zone_redundancy', severity: 'medium', message: expect.any(String), component_ids: ['app-1', 'app-2'] },
      ]),
    );
    expect(Date.parse(assessment.updated_at)).toBeGreaterThanOrEqual(Date.parse(assessment.created_at));
  });

  it('answers from the workflow while no worker runs', async () => {
    const assessment = await submittedWithFindings();
    await harness.stopWorker();
    try {
      const response = await getAssessment(assessment.assessment_id);
      expect(response.status).toBe(200);
      const { assessment_id, name, status, created_at, findings } = assessment;
      expect(response.body).toMatchObject({ assessment_id, name, status, created_at, findings });
    } finally {
      await harness.startWorker();
    }
  });

  it('records a claim escalation past the claim SLA, visible in GET, and keeps waiting', async () => {
    const created = await createAssessment(ARCHITECTURE);
    const escalated = await pollUntil(created.body.assessment_id, (assessment) => assessment.escalations.length > 0);
    expect(escalated.status).toBe('submitted');
    expect(escalated.escalations).toEqual([{ kind: 'claim_overdue', at: expect.any(String), stage: 'review' }]);
    expect((await alice('claim', escalated.assessment_id)).code).toBe(0);
  });
});

describe('the review, from POST through the reviewer CLI and the API to completed', () => {
  it('lists, claims and completes an assessment; GET follows each step and ends completed with the review', async () => {
    const assessment = await submittedWithFindings();
    const id = assessment.assessment_id;

    const listed = await pendingUntil((queue) => queue.some((item) => item.assessment_id === id));
    expect(listed.find((item) => item.assessment_id === id)).toMatchObject({ organization_id: 'acme', status: 'submitted', name: 'Web shop', checks_completed: true });

    const claimed = await alice('claim', id);
    expect(claimed).toMatchObject({ code: 0, stderr: '' });
    expect(claimed.stdout).toContain(`${id} claimed by alice`);
    expect((await getAssessment(id)).body).toMatchObject({ status: 'under_review' });

    const completed = await alice('complete', id, '--verdict', 'changes_requested', '--notes', 'Put the database in two zones.');
    expect(completed).toMatchObject({ code: 0, stdout: `${id} completed: changes_requested by alice\n` });

    const final = (await getAssessment(id)).body;
    expect(final).toMatchObject({
      assessment_id: id,
      status: 'completed',
      review: { verdict: 'changes_requested', notes: 'Put the database in two zones.', reviewer: 'alice', completed_at: expect.any(String) },
      findings: assessment.findings,
    });
    expect(final.updated_at).toBe(final.review.completed_at);
    // Kept the default 30 days from the close of its workflow, which follows the review.
    const closed = await pollUntil(id, (body) => body.expires_at !== null);
    const keptMs = Date.parse(closed.expires_at) - Date.parse(final.review.completed_at);
    expect(keptMs).toBeGreaterThanOrEqual(30 * 86_400_000);
    expect(keptMs).toBeLessThan(30 * 86_400_000 + 60_000);
    const afterwards = await pendingUntil((queue) => queue.every((item) => item.assessment_id !== id));
    expect(afterwards.map((item) => item.assessment_id)).not.toContain(id);
  });

  it('shows an assessment to a reviewer with its claim, findings and submitted context', async () => {
    const { assessment_id: id } = await submittedWithFindings();
    await alice('claim', id);
    const shown = await alice('show', id);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('status:      under_review, claimed by alice');
    expect(shown.stdout).toContain('Checkout for the EU shop');
    expect(shown.stdout).toContain('graph:       5 components, 5 links');
    expect(shown.stdout).toMatch(/high\s+missing_redundancy/);
    const json = JSON.parse((await alice('show', id, '--json')).stdout);
    expect(json).toMatchObject({ assessment_id: id, organization_id: 'acme', claim: { reviewer: 'alice' }, graph: { components: ARCHITECTURE.components } });
  });

  it('refuses a second reviewer, naming who holds the claim, and lets them release it', async () => {
    const { assessment_id: id } = await submittedWithFindings();
    await alice('claim', id);
    const second = await bob('claim', id);
    expect(second.code).toBe(ExitCode.Refused);
    expect(second.stderr).toMatch(/^assay: HTTP 409 REVIEW_REFUSED: ALREADY_CLAIMED: Already claimed by alice since .*; they must release it first \(request req_\w+\)\n$/);
    expect((await bob('release', id)).code).toBe(ExitCode.Refused);
    expect((await alice('release', id)).stdout).toContain(`${id} released to the queue`);
    expect((await getAssessment(id)).body.status).toBe('under_review');
    expect((await bob('claim', id)).code).toBe(0);
  });

  it('prints the queue a page at a time, with how to get the next, and narrows it to the reviewer’s own claims', async () => {
    const ids = [(await submittedWithFindings()).assessment_id, (await submittedWithFindings()).assessment_id];
    for (const id of ids) expect((await bob('claim', id)).code).toBe(0);

    const first = await bob('pending', '--mine', '--limit', '1');
    expect(first.code).toBe(0);
    const cursor = /^More: add --cursor (\S+) /m.exec(first.stdout)?.[1];
    expect(cursor).toEqual(expect.any(String));
    const next = JSON.parse((await bob('pending', '--mine', '--limit', '1', '--cursor', cursor as string, '--json')).stdout);
    expect(next).toEqual({ data: [expect.objectContaining({ claim: expect.objectContaining({ reviewer: 'bob' }) })], has_more: expect.any(Boolean), next_cursor: next.has_more ? expect.any(String) : null });

    const everything = JSON.parse((await bob('pending', '--mine', '--all', '--json')).stdout);
    expect(everything.data.map((item: any) => item.assessment_id)).toEqual(expect.arrayContaining(ids));
    expect(everything.data.every((item: any) => item.claim?.reviewer === 'bob')).toBe(true);
    expect((await bob('pending', '--limit', '0')).code).not.toBe(0);
  });

  it('refuses to complete what nobody claimed', async () => {
    const { assessment_id: id } = await submittedWithFindings();
    const run = await alice('complete', id, '--verdict', 'approved', '--notes', 'Fine.');
    expect(run.code).toBe(ExitCode.Refused);
    expect(run.stderr).toMatch(/^assay: HTTP 409 REVIEW_REFUSED: NOT_CLAIMED: Nobody has claimed this assessment; claim it before you complete it \(request req_\w+\)\n$/);
  });

  it('refuses every action on a completed assessment', async () => {
    const { assessment_id: id } = await submittedWithFindings();
    await alice('claim', id);
    await alice('complete', id, '--verdict', 'approved', '--notes', 'Fine.');
    for (const [who, ...args] of [['bob', 'claim', id], ['alice', 'release', id], ['alice', 'complete', id, '--verdict', 'rejected', '--notes', 'No.']] as string[][]) {
      const run = await assay(who, ...args);
      expect(run.code).toBe(ExitCode.Refused);
      expect(run.stderr).toMatch(/^assay: HTTP 409 REVIEW_REFUSED: ALREADY_COMPLETED: Already completed \(approved by alice at .*\); it accepts no further actions \(request req_\w+\)\n$/);
    }
  });

  it.each([
    ['an unknown verdict', 'alice', ['complete', 'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA', '--verdict', 'maybe', '--notes', 'x'], ExitCode.Usage],
    ['blank notes', 'alice', ['complete', 'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA', '--verdict', 'approved', '--notes', ' '], ExitCode.Usage],
    ['no reviewer credential', undefined, ['claim', 'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA'], ExitCode.Usage],
    ['an unknown assessment', 'alice', ['show', 'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA'], ExitCode.NotFound],
    ['something that is not an assessment id', 'alice', ['claim', 'task_01JAAAAAAAAAAAAAAAAAAAAAAA'], ExitCode.NotFound],
  ])('exits with the documented code for %s', async (_case, who, args, code) => {
    expect((await assay(who as string | undefined, ...(args as string[]))).code).toBe(code);
  });

  it('reviews the production namespace with a live credential, and only with one', async () => {
    const live = await harness.issueKey('acme', 'live');
    const { assessment_id: id } = await submittedWithFindings(ARCHITECTURE, live.key);
    expect((await alice('claim', id)).code).toBe(ExitCode.NotFound);
    expect((await assay('alice-live', 'claim', id)).code).toBe(0);
    expect((await getAssessment(id, live.key)).body.status).toBe('under_review');
  });

  it('says so, without hanging, when no worker confirms an action', async () => {
    const { assessment_id: id } = await submittedWithFindings();
    await harness.stopWorker();
    try {
      const run = await alice('claim', id);
      expect(run.stderr).toContain('HTTP 504 REVIEW_UNCONFIRMED: No worker confirmed the action in time');
      expect(run.code).toBe(ExitCode.OutcomeUnknown);
    } finally {
      await harness.startWorker();
    }
  });
});

/** An assessment of `body`, its checks run, reviewed by alice through the API with `verdict`. */
async function reviewedAssessment(verdict: string, body: unknown = ARCHITECTURE): Promise<string> {
  const { assessment_id: id } = await submittedWithFindings(body);
  const reviewUrl = `${harness.baseUrl}/v1/review/assessments/${id}`;
  expect((await http(`${reviewUrl}/claim`, { method: 'POST', headers: bearer(reviewers.alice) })).status).toBe(200);
  const completed = await http(`${reviewUrl}/complete`, { method: 'POST', headers: bearer(reviewers.alice), json: { verdict, notes: 'Reviewed by the test.' } });
  expect(completed.status).toBe(200);
  return id;
}

// The database gets a replica in a second zone, and the second app moves there.
const REVISED = {
  ...ARCHITECTURE,
  name: 'Web shop, revised',
  components: [
    ...ARCHITECTURE.components.map((component) => (component.id === 'app-2' ? { ...component, zone: 'eu-1b' } : component)),
    { id: 'db-2', kind: 'database', zone: 'eu-1b', attributes: { engine: 'postgres' } },
  ],
  links: [...ARCHITECTURE.links, { from: 'app-1', to: 'db-2' }, { from: 'app-2', to: 'db-2' }],
};

describe('revisions', () => {
  it('links a revision of a changes_requested assessment both ways, replays its create, and shows reviewers what changed', async () => {
    const original = await reviewedAssessment('changes_requested');
    const idempotencyKey = randomUUID();
    const created = await createAssessment({ ...REVISED, revision_of: original }, { 'idempotency-key': idempotencyKey });
    expect(created.status).toBe(202);
    const revision = created.body.assessment_id;
    expect(created.body).toMatchObject({ status: 'submitted', revision_of: original, revised_by: null });

    const replayed = await createAssessment({ ...REVISED, revision_of: original }, { 'idempotency-key': idempotencyKey });
    expect(replayed.status).toBe(202);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toMatchObject({ assessment_id: revision, revision_of: original });
    // revision_of is part of the body a replay is compared with.
    const reused = await createAssessment(REVISED, { 'idempotency-key': idempotencyKey });
    expect(reused.status).toBe(422);

    expect((await getAssessment(original)).body).toMatchObject({ assessment_id: original, status: 'completed', revision_of: null, revised_by: revision });
    const checked = await pollUntil(revision, (body) => Array.isArray(body.findings));
    expect(checked).toMatchObject({ revision_of: original, revised_by: null });
    const listed = (await http(`${assessmentsUrl}?limit=100`, { headers: bearer(key) })).body.data;
    expect(listed.find((item: any) => item.assessment_id === original)).toMatchObject({ revised_by: revision });
    expect(listed.find((item: any) => item.assessment_id === revision)).toMatchObject({ revision_of: original });

    const shown = await http(`${harness.baseUrl}/v1/review/assessments/${revision}`, { headers: bearer(reviewers.bob) });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ assessment_id: revision, revision_of: original });
    expect(shown.body.revision).toMatchObject({
      of: original,
      components_added: ['db-2'],
      components_removed: [],
      links_added: [{ from: 'app-1', to: 'db-2' }, { from: 'app-2', to: 'db-2' }],
      links_removed: [],
      findings_new: expect.any(Array),
    });
    expect(shown.body.revision.findings_fixed).toEqual(
      expect.arrayContaining([expect.objectContaining({ check: 'missing_redundancy', component_ids: ['db'] }), expect.objectContaining({ check: 'no_zone_redundancy', component_ids: ['app-1', 'app-2'] })]),
    );
    const originalShown = await http(`${harness.baseUrl}/v1/review/assessments/${original}`, { headers: bearer(reviewers.bob) });
    expect(originalShown.body).toMatchObject({ revision_of: null });
    expect(originalShown.body).not.toHaveProperty('revision');

    // One revision per assessment: the next round revises the revision.
    const second = await createAssessment({ ...REVISED, revision_of: original });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'REVISION_NOT_ALLOWED', message: expect.stringContaining(`already revised by ${revision}`) });
  });

  it.each([
    ['approved', /was approved; only an assessment whose review requested changes/],
    ['rejected', /was rejected; only an assessment whose review requested changes/],
  ])('refuses to revise an %s assessment with 409 REVISION_NOT_ALLOWED', async (verdict, message) => {
    const original = await reviewedAssessment(verdict);
    const response = await createAssessment({ ...REVISED, revision_of: original });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: 'REVISION_NOT_ALLOWED', message: expect.stringMatching(message) });
    expect((await getAssessment(original)).body).toMatchObject({ revised_by: null });
  });

  it('refuses to revise one not reviewed yet', async () => {
    const { assessment_id: original } = await submittedWithFindings();
    const response = await createAssessment({ ...REVISED, revision_of: original });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: 'REVISION_NOT_ALLOWED', message: expect.stringContaining('not reviewed yet') });
  });

  it("answers 404 for an unknown assessment, another organisation's or another environment's", async () => {
    const original = await reviewedAssessment('changes_requested');
    const other = await harness.issueKey('globex', 'test');
    const live = await harness.issueKey('acme', 'live');
    for (const [revisionOf, apiKey] of [['asmt_01JAAAAAAAAAAAAAAAAAAAAAAA', key], [original, other.key], [original, live.key]]) {
      const response = await createAssessment({ ...REVISED, revision_of: revisionOf }, {}, apiKey);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    // None of those took the revision.
    const revision = await createAssessment({ ...REVISED, revision_of: original });
    expect(revision.status).toBe(202);
  });

  it('forgets an erased revision: what it revised shows no revised_by and may be revised again', async () => {
    const original = await reviewedAssessment('changes_requested');
    const first = await createAssessment({ ...REVISED, revision_of: original });
    expect(first.status).toBe(202);
    const erased = await http(`${assessmentsUrl}/${first.body.assessment_id}`, { method: 'DELETE', headers: bearer(key) });
    expect([202, 204]).toContain(erased.status);
    expect((await getAssessment(original)).body).toMatchObject({ revised_by: null });
    const second = await createAssessment({ ...REVISED, revision_of: original });
    expect(second.status).toBe(202);
    expect((await getAssessment(original)).body).toMatchObject({ revised_by: second.body.assessment_id });
  });

  it('answers 400 for a revision_of that is no assessment id', async () => {
    const response = await createAssessment({ ...REVISED, revision_of: 'task_01JAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/^revision_of: must be an assessment id/);
  });
});

describe('Idempotency-Key', () => {
  it('replays the same assessment for a repeated key and marks the replay', async () => {
    const idempotencyKey = randomUUID();
    const first = await createAssessment(ARCHITECTURE, { 'idempotency-key': idempotencyKey });
    const second = await createAssessment(ARCHITECTURE, { 'idempotency-key': idempotencyKey });
    expect(second.status).toBe(202);
    expect(second.body.assessment_id).toBe(first.body.assessment_id);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('creates exactly one assessment for concurrent POSTs with one key', async () => {
    const idempotencyKey = randomUUID();
    const responses = await Promise.all(Array.from({ length: 8 }, () => createAssessment(ARCHITECTURE, { 'idempotency-key': idempotencyKey })));
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(202));
    expect(new Set(responses.map((response) => response.body.assessment_id)).size).toBe(1);
    expect(responses.filter((response) => response.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with a different architecture', async () => {
    const idempotencyKey = randomUUID();
    await createAssessment(ARCHITECTURE, { 'idempotency-key': idempotencyKey });
    const reused = await createAssessment({ ...ARCHITECTURE, name: 'Another shop' }, { 'idempotency-key': idempotencyKey });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('does not confuse a task and an assessment created with the same key', async () => {
    const idempotencyKey = randomUUID();
    const task = await http(`${harness.baseUrl}/v1/ai/tasks`, {
      method: 'POST',
      headers: { ...bearer(key), 'idempotency-key': idempotencyKey },
      json: { task_type: 'summarize', input: { text: 'A short text. It has two sentences.' } },
    });
    const assessment = await createAssessment(ARCHITECTURE, { 'idempotency-key': idempotencyKey });
    expect(task.status).toBe(202);
    expect(assessment.status).toBe(202);
    expect(assessment.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('bad input', () => {
  const withLinks = (links: unknown) => ({ ...ARCHITECTURE, links });
  const withComponents = (components: unknown) => ({ ...ARCHITECTURE, components });
  const cases: Array<[string, RequestInit & { json?: unknown }, number, string, RegExp]> = [
    ['a missing name', { json: { ...ARCHITECTURE, name: undefined } }, 400, 'INVALID_REQUEST', /^name: /],
    ['no components', { json: withComponents([]) }, 400, 'INVALID_REQUEST', /^components: /],
    ['a duplicate component id', { json: withComponents([...ARCHITECTURE.components, { id: 'db', kind: 'cache', zone: 'eu-1b' }]) }, 400, 'INVALID_REQUEST', /^components\.5\.id: "db" is already the id of components\.4/],
    ['a link to nowhere', { json: withLinks([{ from: 'lb', to: 'ghost' }]) }, 400, 'INVALID_REQUEST', /^links\.0\.to: "ghost" is not the id of any component/],
    ['a component id with a slash', { json: withComponents([{ id: 'a/b', kind: 'app', zone: 'z' }]) }, 400, 'INVALID_REQUEST', /^components\.0\.id: /],
    ['too many links', { json: withLinks(Array(10_001).fill({ from: 'lb', to: 'db' })) }, 400, 'INVALID_REQUEST', /^links: must list at most 10000 links/],
    ['an array body', { json: [ARCHITECTURE] }, 400, 'INVALID_REQUEST', /^body: /],
    ['invalid JSON', { body: '{"name": ', headers: { 'content-type': 'application/json' } }, 400, 'INVALID_REQUEST', /JSON/],
    ['a text/plain body', { body: 'hello', headers: { 'content-type': 'text/plain' } }, 415, 'UNSUPPORTED_MEDIA_TYPE', /application\/json/],
    ['a body over 4 MiB', { json: { ...ARCHITECTURE, context: 'c'.repeat(4 * 1024 * 1024) } }, 413, 'PAYLOAD_TOO_LARGE', /too large/],
  ];
  // An organisation of its own: the file's other creates with acme's key must not leave these to its rate limit.
  let badInputKey: string;
  beforeAll(async () => {
    badInputKey = (await harness.issueKey('bad-input', 'test')).key;
  });

  it.each(cases)('answers %s with the error body naming the problem', async (_name, init, status, code, message) => {
    const response = await http(assessmentsUrl, { method: 'POST', ...init, headers: { ...bearer(badInputKey), ...(init.headers as Record<string, string>) } });
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error: { code, message: expect.stringMatching(message), request_id: response.headers.get('x-request-id') } });
  });
});

describe('a live key at an API without encryption keys', () => {
  it('is refused a create, a read, a list and a review with 503 ENCRYPTION_REQUIRED, and no assessment is started', async () => {
    // Started while no live key of the organisation existed; the key is issued after.
    const keyless = await harness.startApi({ PAYLOAD_ENCRYPTION_KEYS: undefined, PAYLOAD_ENCRYPTION: 'required' });
    const live = (await harness.issueKey('initech', 'live')).key;
    const refused = { status: 503, body: { error: { code: 'ENCRYPTION_REQUIRED' } } };
    const created = await http(`${keyless}/v1/network-assessments`, { method: 'POST', headers: { ...bearer(live), 'idempotency-key': 'first' }, json: ARCHITECTURE });
    expect(created).toMatchObject(refused);
    expect((await getAssessment(assessmentIdForIdempotencyKey('initech', 'first'), live)).status).toBe(404);

    const stored = await createAssessment(ARCHITECTURE, {}, live);
    for (const path of [`/v1/network-assessments/${stored.body.assessment_id}`, '/v1/network-assessments']) {
      expect(await http(`${keyless}${path}`, { headers: bearer(live) })).toMatchObject(refused);
    }
    // A live reviewer reads and changes production assessments: refused alike.
    expect(await http(`${keyless}/v1/review/assessments/${stored.body.assessment_id}`, { headers: bearer(reviewers['alice-live']) })).toMatchObject(refused);
  });
});

describe('isolation', () => {
  it("answers 404 for another organisation's assessment", async () => {
    const other = await harness.issueKey('globex', 'test');
    const created = await createAssessment(ARCHITECTURE);
    const response = await getAssessment(created.body.assessment_id, other.key);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });

  it('keeps the sandbox and production apart in both directions', async () => {
    const live = await harness.issueKey('acme', 'live');
    const sandbox = await createAssessment(ARCHITECTURE);
    const production = await createAssessment(ARCHITECTURE, {}, live.key);
    expect((await getAssessment(sandbox.body.assessment_id, live.key)).status).toBe(404);
    expect((await getAssessment(production.body.assessment_id)).status).toBe(404);
    expect((await getAssessment(production.body.assessment_id, live.key)).status).toBe(200);
  });

  it.each(['asmt_01JAAAAAAAAAAAAAAAAAAAAAAA', 'task_01JAAAAAAAAAAAAAAAAAAAAAAA', '..%2F..%2Fetc'])('answers 404 for %s', async (id) => {
    const response = await getAssessment(id);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });

  it('answers 401 without an API key', async () => {
    const response = await http(assessmentsUrl, { method: 'POST', json: ARCHITECTURE });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('UNAUTHORIZED');
  });
});

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SlowProvider } from '../../chaos/stack/slow-provider';
import type { DevServer } from '../../src/embedded/temporal-dev-server';
import { freePort } from '../../src/embedded/free-port';
import { AssayHarness } from '../support/assay-harness';
import { API_OPERATIONS } from '../support/api-operations';
import { eventually } from '../support/eventually';
import { bearer, http, type HttpResult } from '../support/http';
import { operationName, sendEveryOperation, type TimedAnswer } from '../support/operation-requests';
import { ANSWERED_WITHOUT_TEMPORAL } from '../support/operations-without-temporal';
import { reportFiguresIfAsked } from '../support/report-figures';
import { SteadyTaskLoad, type LoadAnswer } from '../support/steady-task-load';
import { storeEndpointWithDelivery } from '../support/stored-webhook';
import { SUMMARIZE_TASK, taskWhenFinal } from '../support/tasks';
import { startTestTemporal } from '../support/test-temporal';
import { usageSince, utcDay } from '../support/usage-since';

// The Temporal dev server is stopped under a steady load of creates and polls, and started again on
// the same port and SQLite file, as an operator's restart or a crash and its supervisor would. The
// API and the workers stay up throughout, on the connections they opened before: what is tested is
// that they ride the outage out (503 + Retry-After on every route that needs Temporal, within its
// deadline) and find the server again by themselves, and that nothing the API accepted is lost or
// done twice. test/integration/api/temporal-unavailable.test.ts covers a Temporal never reached.

// Short deadlines, so the walk of every operation in the outage takes seconds, not minutes; what
// is asserted is that they hold, whatever they are.
const TEMPORAL_RPC_TIMEOUT_MS = 3000;
const REVIEW_UPDATE_TIMEOUT_MS = 5000;
// The longest an operation may spend on Temporal: a review action's lookups and then its update
// (ReviewService), longer than an erasure's three calls in a row. A loaded 2-core CI machine gets
// generous room beyond it; a request that hangs on an unreachable server would take far longer.
const LONGEST_DEADLINE_MS = REVIEW_UPDATE_TIMEOUT_MS + TEMPORAL_RPC_TIMEOUT_MS;
const ANSWER_BOUND_MS = LONGEST_DEADLINE_MS + 15_000;
// Long enough for the load's creates to be refused and retried several times, and for the workers'
// own retries of their calls to give up: summaries finished in the outage cannot be reported, and
// come back through Temporal's timeouts once it returns (providerCallsRepeated in the figures).
const MIN_OUTAGE_MS = 15_000;
// Tasks the load has seen succeed before the stop: the workers were serving, not starting.
const SUCCEEDED_BEFORE_STOP = 10;
// Summaries that take a while, so the stop finds some mid-call: their results reach the worker while
// the server is gone, and must still be recorded once it is back.
const SUMMARY_DELAY = { minMs: 1000, maxMs: 3000 };
const CREATE = 'POST /v1/ai/tasks';
const POLL = 'GET /v1/ai/tasks/{task_id}';

const FIRST_DAY = utcDay();
let workDir: string;
const provider = new SlowProvider(SUMMARY_DELAY);
let temporal: DevServer;
let harness: AssayHarness;
let load: SteadyTaskLoad;
let key: string;
let sweepKey: string;

// What the run saw, asserted below.
let stoppedAt: number;
let downAt: number;
let restartedAt: number;
let readyAt: number;
let outageAnswers: Map<string, TimedAnswer>;
let resumedCreate: HttpResult;
let resumedTaskStatus: string | undefined;
/** Each accepted task as last read: its status, and when it last changed (for a final one, when it finished). */
let finalReads: Map<string, { status: string; updatedAt: number }>;
let usageTasks: number | undefined;

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-temporal-outage-'));
  // Fixed before the first start: the API's and the workers' connections name this address, and the
  // server must come back on it with the same database for them to find their workflows again.
  const port = await freePort();
  const dbFile = path.join(workDir, 'temporal.sqlite');
  temporal = await startTestTemporal({ port, dbFile });
  harness = await AssayHarness.start({
    temporal,
    provider,
    env: {
      TEMPORAL_RPC_TIMEOUT_MS: String(TEMPORAL_RPC_TIMEOUT_MS),
      REVIEW_UPDATE_TIMEOUT_MS: String(REVIEW_UPDATE_TIMEOUT_MS),
      // The create limits are not under test: the load's retries in the outage would meet them.
      RATE_LIMIT_CREATES_PER_MINUTE: '60000',
      RATE_LIMIT_CREATES_BURST: '1000',
      RATE_LIMIT_ORGANISATION_CREATES_PER_MINUTE: '60000',
      RATE_LIMIT_ORGANISATION_CREATES_BURST: '1000',
    },
  });
  key = (await harness.issueKey('acme', 'test')).key;
  // The walk of every operation and the create after the restart come from another organisation,
  // so acme's usage counts the load's tasks and nothing else.
  sweepKey = (await harness.issueKey('globex', 'test')).key;
  const reviewer = (await harness.addReviewer('alice')).credential;
  // Real ids where the API checks its own database before Temporal, so the request gets that far.
  const { endpointId, deliveryId } = await storeEndpointWithDelivery((await harness.operatorStorage()).webhooks, 'globex', 'test');

  load = new SteadyTaskLoad({ baseUrl: harness.baseUrl, key, createEveryMs: 250, pollEveryMs: 100 });
  load.start();
  await eventually(
    async () => [...load.lastStatus.values()].filter((status) => status === 'succeeded').length,
    (succeeded) => succeeded >= SUCCEEDED_BEFORE_STOP,
    `${SUCCEEDED_BEFORE_STOP} of the load's tasks to succeed before the stop`,
    120_000,
  );

  stoppedAt = Date.now();
  await temporal.stop();
  downAt = Date.now();
  outageAnswers = await sendEveryOperation(harness.baseUrl, API_OPERATIONS, { key: sweepKey, reviewer }, { ids: { endpoint_id: endpointId, delivery_id: deliveryId } });
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, stoppedAt + MIN_OUTAGE_MS - Date.now())));

  restartedAt = Date.now();
  temporal = await startTestTemporal({ port, dbFile });
  readyAt = Date.now();
  resumedCreate = await eventually(
    () => http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: { ...bearer(sweepKey), 'idempotency-key': 'after-the-restart' }, json: SUMMARIZE_TASK }),
    // 503 while the API has not reached the server again; 429 if admission holds creates back while the backlog drains.
    (answer) => answer.status !== 503 && answer.status !== 429,
    'a create to be accepted after the restart',
    120_000,
    500,
  );
  if (resumedCreate.status === 202) resumedTaskStatus = (await taskWhenFinal(harness.baseUrl, sweepKey, resumedCreate.body.id, 120_000)).status;

  await load.stop();
  const ids = [...load.accepted.values()].map((task) => task.id);
  finalReads = new Map();
  const isFinal = (id: string) => ['succeeded', 'failed'].includes(finalReads.get(id)?.status ?? '');
  await eventually(
    async () => {
      for (const id of ids.filter((candidate) => !isFinal(candidate))) {
        const read = await http(`${harness.baseUrl}/v1/ai/tasks/${id}`, { headers: bearer(key) });
        if (read.status === 200) finalReads.set(id, { status: read.body.status, updatedAt: Date.parse(read.body.updated_at) });
      }
      return ids.filter(isFinal).length;
    },
    (final) => final === ids.length,
    `all ${ids.length} accepted tasks to be final`,
    180_000,
    1000,
  ).catch(() => undefined);
  // Recorded by the workflow after its result; read until it has caught up with the tasks (or run past them).
  usageTasks = await eventually(
    async () => (await usageSince(harness.baseUrl, key, FIRST_DAY)).reduce((sum, total) => sum + Number(total.tasks), 0),
    (tasks) => tasks >= ids.length,
    'usage to count every task',
    30_000,
    500,
  ).catch(() => undefined);

  reportFiguresIfAsked('temporal-outage', figures());
}, 600_000);

afterAll(async () => {
  await load?.stop();
  // The harness stops the server it was given, which the outage already stopped; the one started again is this file's.
  await harness?.stop();
  await temporal?.stop();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

function figures(): Record<string, unknown> {
  const accepted = [...load.accepted.values()];
  const createsInOutage = load.answersTo(CREATE, stoppedAt, readyAt);
  const firstAcceptedAfterRestart = Math.min(...load.answersTo(CREATE, restartedAt, Infinity).filter((answer) => answer.status === 202).map((answer) => answer.answeredAt));
  const finishedAfterRestart = [...finalReads.values()].filter((read) => read.status === 'succeeded' && read.updatedAt >= restartedAt).map((read) => read.updatedAt);
  const pollsInOutage = load.answersTo(POLL, downAt, restartedAt);
  const [slowest] = [...outageAnswers].map(([operation, answer]) => ({ operation, ms: answer.elapsedMs })).sort((a, b) => b.ms - a.ms);
  return {
    outageMs: readyAt - stoppedAt,
    serverShutdownMs: downAt - stoppedAt,
    serverRestartMs: readyAt - restartedAt,
    createsRefusedInOutage: createsInOutage.filter((answer) => answer.status === 503).length,
    // Beside the 503s: creates the server took while shutting down, or once it answered again before it reported ready.
    createStatusesInOutage: countBy(createsInOutage.map((answer) => answer.status)),
    pollsRefusedInOutage: pollsInOutage.filter((answer) => answer.status === 503).length,
    pollsAnsweredInOutage: pollsInOutage.length,
    slowestOperationInOutage: slowest,
    slowestPollInOutageMs: Math.max(...pollsInOutage.map((answer) => answer.answeredAt - answer.sentAt)),
    // From the restart (serverRestartMs of it the server's own start, until it answers for both namespaces).
    firstCreateAcceptedAfterRestartMs: firstAcceptedAfterRestart - restartedAt,
    firstTaskFinishedAfterRestartMs: Math.min(...finishedAfterRestart) - restartedAt,
    lastTaskFinishedAfterRestartMs: Math.max(...finishedAfterRestart) - restartedAt,
    tasksAccepted: accepted.length,
    tasksFirstSentBeforeStop: accepted.filter((task) => task.firstSentAt < stoppedAt).length,
    tasksFirstSentInOutage: accepted.filter((task) => task.firstSentAt >= stoppedAt && task.firstSentAt < readyAt).length,
    tasksSucceeded: [...finalReads.values()].filter((read) => read.status === 'succeeded').length,
    usageTasks,
    // Calls for a text already summarised: work the outage made a worker do again, its result still recorded once.
    providerCallsRepeated: provider.repeatedCalls,
  };
}

function countBy(values: number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

function expectUnavailable(answer: Pick<LoadAnswer, 'status' | 'code' | 'retryAfter'>): void {
  expect({ status: answer.status, code: answer.code }).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
}

describe('every operation while the Temporal server is stopped', () => {
  it.each(API_OPERATIONS.filter((operation) => !ANSWERED_WITHOUT_TEMPORAL.has(operationName(operation))).map(operationName))(
    '%s answers 503 SERVICE_UNAVAILABLE with Retry-After',
    (name) => {
      const answer = outageAnswers.get(name) as TimedAnswer;
      expectUnavailable({ status: answer.status, code: answer.body?.error?.code, retryAfter: answer.headers.get('retry-after') });
    },
  );

  it.each([...ANSWERED_WITHOUT_TEMPORAL])('%s answers as usual, without an error of the server', (name) => {
    expect((outageAnswers.get(name) as TimedAnswer).status).toBeLessThan(500);
  });

  it('answers each within its deadline, none hanging on the unreachable server', () => {
    const slow = [...outageAnswers].filter(([, answer]) => answer.elapsedMs > ANSWER_BOUND_MS).map(([name, answer]) => `${name}: ${answer.elapsedMs} ms`);
    expect(slow).toEqual([]);
  });
});

describe('the load through the outage', () => {
  it('never meets a 500: every 5xx is a 503 with Retry-After, which the SDK waits out, and so is every create sent while the server was down', () => {
    const serverErrors = load.answers.filter((answer) => answer.status >= 500 && (answer.status !== 503 || !(Number(answer.retryAfter) > 0)));
    expect(serverErrors).toEqual([]);
    // A create sent once the server had exited cannot start its workflow: every one is refused, none accepted.
    const createsInOutage = load.answersTo(CREATE, downAt, restartedAt);
    expect(createsInOutage.length).toBeGreaterThan(0);
    for (const answer of createsInOutage) expectUnavailable(answer);
  });

  it('resumes once the server is back: a new create succeeds end to end', () => {
    expect(resumedCreate.status).toBe(202);
    expect(resumedTaskStatus).toBe('succeeded');
  });

  it('loses nothing it accepted before or during the outage, and does none twice', () => {
    const accepted = [...load.accepted.values()];
    expect(load.givenUp).toEqual([]);
    expect(accepted.filter((task) => task.firstSentAt >= stoppedAt && task.firstSentAt < restartedAt).length).toBeGreaterThan(0);
    expect(new Set(accepted.map((task) => task.id)).size).toBe(accepted.length);
    const notSucceeded = accepted.filter((task) => finalReads.get(task.id)?.status !== 'succeeded').map((task) => `${task.id}: ${finalReads.get(task.id)?.status ?? 'never read'}`);
    expect(notSucceeded).toEqual([]);
    // Usage is recorded once per task that ran (usage.test.ts): a task recorded twice would count twice,
    // and so would a second task for one Idempotency-Key (a create whose answer the stop cut off, sent again).
    expect(usageTasks).toBe(accepted.length);
  });
});

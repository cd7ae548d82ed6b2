import { randomUUID } from 'node:crypto';
import { AssayClient, type Task } from '../../src/sdk';
import type { BuiltService } from '../support/built-service';
import { startEmbeddedStack, stopEmbeddedStack, type EmbeddedStack } from '../support/embedded-stack';
import { eventually } from '../support/eventually';
import { bearer, http } from '../support/http';
import { SUMMARIZE_TASK, taskWhenFinal } from '../support/tasks';

// `npm start` as a user runs it, on free ports and a temp data directory, while tasks are created:
// each child in turn is killed with SIGKILL and must come back by itself, with no task lost or doubled.
const CHILDREN = ['worker', 'api', 'codec', 'Temporal dev server'] as const;
type ChildName = (typeof CHILDREN)[number];

// Two creators, each pausing between creates: steady load well under the create rate limit.
const CREATORS = 2;
const CREATE_PAUSE_MS = 200;
// An answer slower than this is a hang: the API answers 503 within its Temporal RPC timeout (5 s).
const HANG_MS = 10_000;
const PROBE_PAUSE_MS = 100;
const RECOVERY_TIMEOUT_MS = 45_000;

let embedded: EmbeddedStack;
let stack: BuiltService;
let baseUrl: string;
let codecUrl: string;
let key: string;

beforeAll(async () => {
  embedded = await startEmbeddedStack('assay-supervisor-', {
      // Off: the default port would collide with another stack's worker.
      WORKER_METRICS_PORT: '0',
      // Off, as in the chaos suite: the backlog a worker's kill leaves under load has admission
      // refuse the next creates with 429 for a while, and this test asks whether the supervisor
      // brings every child back with nothing lost (admission has its own test, admission.test.ts).
      ADMISSION_MAX_QUEUE_SECONDS: '0',
  });
  ({ service: stack, baseUrl, apiKey: key } = embedded);
  codecUrl = `http://127.0.0.1:${embedded.ports.codec}/codec/`;
}, 150_000);

afterAll(() => stopEmbeddedStack(embedded));

interface SupervisorLine {
  child: ChildName;
  pid: number;
  msg: string;
}

/** The pids the launcher logged for its children, in order: its `… started` and `… restarted` lines. */
function childStarts(log: string): SupervisorLine[] {
  return log
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"process":"supervisor"') && line.includes('"pid"'))
    .map((line) => JSON.parse(line) as SupervisorLine);
}

function pidOf(child: ChildName): number {
  const starts = childStarts(stack.log).filter((line) => line.child === child);
  return starts[starts.length - 1].pid;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Creates tasks until stopped, each under its own Idempotency-Key, as a client that retries would. */
class CreateLoad {
  readonly created: Task[] = [];
  readonly failures: string[] = [];
  private running = true;
  private readonly loops: Promise<void>[];

  constructor(private readonly client: AssayClient) {
    this.loops = Array.from({ length: CREATORS }, () => this.create());
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async create(): Promise<void> {
    while (this.running) {
      const idempotencyKey = randomUUID();
      await this.client.createTask(SUMMARIZE_TASK, { idempotencyKey }).then(
        (task) => this.created.push(task),
        (error: Error) => this.failures.push(`${idempotencyKey}: ${error.message}`),
      );
      await new Promise((resolve) => setTimeout(resolve, CREATE_PAUSE_MS));
    }
  }
}

interface Answer {
  sentAt: number;
  answeredAt: number;
  /** The HTTP status, or why there was none. */
  outcome: number | 'refused' | 'hang';
  retryAfter: string | null;
}

/** Lists tasks (which asks Temporal) over and over, recording how each request was answered. */
class ApiProbe {
  readonly answers: Answer[] = [];
  private running = true;
  private readonly loop = this.probe();

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async probe(): Promise<void> {
    while (this.running) {
      const sentAt = Date.now();
      const answer = await fetch(`${baseUrl}/v1/ai/tasks?limit=1`, { headers: bearer(key), signal: AbortSignal.timeout(HANG_MS) }).then(
        async (response) => {
          await response.arrayBuffer();
          return { outcome: response.status, retryAfter: response.headers.get('retry-after') };
        },
        (error: Error) => ({ outcome: error.name === 'TimeoutError' ? ('hang' as const) : ('refused' as const), retryAfter: null }),
      );
      this.answers.push({ sentAt, answeredAt: Date.now(), outcome: answer.outcome, retryAfter: answer.retryAfter });
      await new Promise((resolve) => setTimeout(resolve, PROBE_PAUSE_MS));
    }
  }
}

/** When the child was killed and when each part of the service was back (ms since the epoch). */
interface Recovery {
  child: ChildName;
  killedAt: number;
  restartedAt: number;
  apiAnsweredAt: number;
  serviceAt: number;
}

/** Kills the child with SIGKILL and waits until it has been restarted and the whole service works again. */
async function killAndRecover(child: ChildName, probe: ApiProbe): Promise<Recovery> {
  const killedPid = pidOf(child);
  const killedAt = Date.now();
  process.kill(killedPid, 'SIGKILL');
  await eventually(async () => pidOf(child), (pid) => pid !== killedPid, `${child} to be restarted`, RECOVERY_TIMEOUT_MS);
  const restartedAt = Date.now();
  const answered = await eventually(
    async () => probe.answers.find((answer) => answer.sentAt > killedAt && answer.outcome === 200),
    Boolean,
    `the API to answer again after ${child} was killed`,
    RECOVERY_TIMEOUT_MS,
  );
  await eventually(() => fetch(codecUrl).then((response) => response.status, () => 0), (status) => status === 200, 'the codec to answer', RECOVERY_TIMEOUT_MS);
  // A task created now runs on whatever worker and Temporal are up: the whole path works again.
  const fresh = await http<Task>(`${baseUrl}/v1/ai/tasks`, { method: 'POST', headers: { ...bearer(key), prefer: 'wait=30' }, json: SUMMARIZE_TASK });
  expect(fresh.status).toBeLessThan(300);
  expect(await taskWhenFinal(baseUrl, key, fresh.body.id, RECOVERY_TIMEOUT_MS)).toMatchObject({ status: 'succeeded' });
  return { child, killedAt, restartedAt, apiAnsweredAt: answered!.answeredAt, serviceAt: Date.now() };
}

async function listAllTasks(client: AssayClient): Promise<Task[]> {
  const tasks: Task[] = [];
  for await (const page of client.taskPages({ limit: 100 })) tasks.push(...page.data);
  return tasks;
}

describe('npm start with each child killed by SIGKILL mid-load', () => {
  test('restarts every child, answers throughout (503 at worst, never a hang), loses and doubles no task, and still stops on SIGINT', async () => {
    // Retries that outlast any one outage (at least 17 s in all): a refused connection while the API restarts, a 503 while Temporal does.
    const client = new AssayClient({ baseUrl, apiKey: key, retry: { maxRetries: 10, baseDelayMs: 500, maxDelayMs: 4_000 } });
    const load = new CreateLoad(client);
    const probe = new ApiProbe();
    const recoveries: Recovery[] = [];
    try {
      for (const child of CHILDREN) recoveries.push(await killAndRecover(child, probe));
    } finally {
      await load.stop();
      await probe.stop();
    }
    const after = (at: number, recovery: Recovery) => `${((at - recovery.killedAt) / 1000).toFixed(1)} s`;
    const report = recoveries.map((r) => `${r.child} killed: restarted after ${after(r.restartedAt, r)}, API 200 after ${after(r.apiAnsweredAt, r)}, a new task succeeded after ${after(r.serviceAt, r)}`);
    const outcomes = new Map<Answer['outcome'], number>();
    for (const { outcome } of probe.answers) outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    report.push(`${load.created.length} tasks created under load; the API's answers: ${[...outcomes].map(([outcome, count]) => `${count}× ${outcome}`).join(', ')}`);
    process.stdout.write(`\n${report.join('\n')}\n`);

    // Answered throughout: 200, or 503 with Retry-After while Temporal was down; never a hang,
    // never another error, and no connection refused but while the API itself was down.
    const api = recoveries.find((recovery) => recovery.child === 'api')!;
    const whileApiDown = (answer: Answer) => answer.answeredAt >= api.killedAt && answer.answeredAt <= api.apiAnsweredAt;
    const unexpected = probe.answers.filter((answer) => !(answer.outcome === 200 || (answer.outcome === 503 && answer.retryAfter) || (answer.outcome === 'refused' && whileApiDown(answer))));
    expect(unexpected).toEqual([]);

    // Every accepted create ends succeeded, and the organisation has exactly those tasks, each once.
    expect(load.failures).toEqual([]);
    expect(load.created.length).toBeGreaterThan(20);
    for (const task of load.created) expect(await taskWhenFinal(baseUrl, key, task.id, RECOVERY_TIMEOUT_MS)).toMatchObject({ status: 'succeeded' });
    const listed = (await listAllTasks(client)).map((task) => task.id);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).toEqual(expect.arrayContaining(load.created.map((task) => task.id)));
    expect(listed).toHaveLength(load.created.length + CHILDREN.length);
    expect(stack.log).not.toContain('giving up');

    // Ctrl-C stops everything: the launcher exits 0 and no child it ever started is left.
    stack.signal('SIGINT');
    expect(await stack.exited).toEqual({ code: 0, signal: null });
    expect(childStarts(stack.log).filter((start) => isRunning(start.pid))).toEqual([]);
  }, 240_000);
});

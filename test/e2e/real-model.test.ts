import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { taskWorkflowId } from '../../src/contract';
import type { Task, TaskProgress } from '../../src/sdk';
import { BuiltService } from '../support/built-service';
import { eventually } from '../support/eventually';
import { bearer, http } from '../support/http';
import type { ModelProxy } from '../support/model-proxy';
import { NEWS_ARTICLES, REAL_MODEL, REAL_MODEL_ORGANISATION, RealModelStack, newsText } from '../support/real-model-stack';
import { reportFiguresIfAsked } from '../support/report-figures';
import { SANDBOX_NAMESPACE } from '../support/test-temporal';

// AI tasks on a real model: SmolLM2-135M behind llama.cpp's OpenAI-compatible server, with a
// proxy in front that counts and disturbs the calls, and workers as separate processes built from
// dist/ (two of them where the shared limit is checked, one SIGKILLed mid-document). Everything
// goes through the public API. The model summarises badly; what is asserted is wiring and
// behaviour, never quality.

const CONTEXT_TOKENS = 512;
const CONCURRENCY = 2;
const TASK_TIMEOUT_MS = 240_000;

let stack: RealModelStack;
const workers: BuiltService[] = [];

beforeAll(async () => {
  stack = await RealModelStack.start({ servedContextTokens: CONTEXT_TOKENS, concurrency: CONCURRENCY, worker: false });
}, 180_000);

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill()));
  await stack?.stop();
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => stopWorker(worker)));
  stack.proxy.resetCounts();
});

/** A worker process as `npm run start:worker` runs it, serving both environments and the model's queue. */
async function startWorker(): Promise<BuiltService> {
  const worker = await BuiltService.start(
    'worker',
    { ...stack.harness.sharedEnv(), ASSAY_MODELS: stack.modelsSetting, WORKER_METRICS_PORT: '0', LOG_LEVEL: 'info' },
    /model queue ready/,
    2,
    60_000,
  );
  workers.push(worker);
  return worker;
}

async function stopWorker(worker: BuiltService): Promise<void> {
  worker.signal('SIGTERM');
  const timer = setTimeout(() => worker.signal('SIGKILL'), 15_000);
  await worker.exited;
  clearTimeout(timer);
}

/** How many of the task's model calls have a result in its history (ActivityTaskCompleted). */
async function modelCallsRecorded(taskId: string): Promise<number> {
  const connection = await Connection.connect({ address: stack.harness.temporal.address });
  try {
    const history = await new Client({ connection, namespace: SANDBOX_NAMESPACE }).workflow.getHandle(taskWorkflowId(REAL_MODEL_ORGANISATION, taskId)).fetchHistory();
    return (history.events ?? []).filter((event) => event.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED).length;
  } finally {
    await connection.close();
  }
}

async function createTask(text: string): Promise<Task> {
  const created = await http<Task>(`${stack.harness.baseUrl}/v1/ai/tasks`, {
    method: 'POST',
    headers: bearer(stack.key),
    json: { task_type: 'summarize', model: REAL_MODEL, input: { text } },
  });
  expect(created.status).toBe(202);
  return created.body;
}

async function getTask(id: string): Promise<Task> {
  const read = await http<Task>(`${stack.harness.baseUrl}/v1/ai/tasks/${id}`, { headers: bearer(stack.key) });
  expect(read.status).toBe(200);
  return read.body;
}

/** Polls as a client would (every 500 ms) until the task is final, keeping every progress it saw. */
async function untilFinal(id: string, seen: TaskProgress[] = []): Promise<Task> {
  return eventually(
    async () => {
      const task = await getTask(id);
      if (task.progress) seen.push(task.progress);
      return task;
    },
    (task) => task.status === 'succeeded' || task.status === 'failed',
    `task ${id} to be final`,
    TASK_TIMEOUT_MS,
  );
}

/** The median time the server took per answered call: it serves one at a time, so the time since the one before ended, or since it arrived. */
function secondsPerCall(calls: ModelProxy['calls']): number {
  const answered = calls.filter((call) => call.status === 200 && call.endedAt !== undefined).sort((a, b) => (a.endedAt as number) - (b.endedAt as number));
  const spans = answered.map((call, index) => ((call.endedAt as number) - Math.max(call.startedAt, index > 0 ? (answered[index - 1].endedAt as number) : 0)) / 1000);
  spans.sort((a, b) => a - b);
  return spans.length === 0 ? 0 : Math.round(spans[Math.floor(spans.length / 2)] * 100) / 100;
}

describe('AI tasks on a real model server', () => {
  it('lists the declared model beside the built-in one', async () => {
    const listed = await http(`${stack.harness.baseUrl}/v1/models`, { headers: bearer(stack.key) });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      { name: 'extractive', provider: 'built-in', default: true },
      { name: REAL_MODEL, provider: 'openai-compatible', default: false, context_tokens: CONTEXT_TOKENS },
    ]);
  });

  it('summarises a short text with one call to the model', async () => {
    await startWorker();
    const created = await createTask(NEWS_ARTICLES[8].slice(0, 900));
    expect(created).toMatchObject({ model: REAL_MODEL, status: 'queued' });
    const task = await untilFinal(created.id);
    expect(task).toMatchObject({ status: 'succeeded', model: REAL_MODEL, progress: { completed_steps: 1, total_steps: 1 } });
    if (task.status === 'succeeded') expect(task.output.summary.trim().length).toBeGreaterThan(0);
    expect(stack.proxy.calls.map((call) => call.status)).toEqual([200]);
  }, TASK_TIMEOUT_MS);

  it('summarises a document longer than the context in several chunks, then combines them, with progress that only rises', async () => {
    await startWorker();
    const created = await createTask(newsText(4000));
    const seen: TaskProgress[] = [];
    const task = await untilFinal(created.id, seen);
    expect(task.status).toBe('succeeded');
    const total = task.progress?.total_steps ?? 0;
    expect(total).toBeGreaterThanOrEqual(4);
    expect(task.progress).toEqual({ completed_steps: total, total_steps: total });
    // Every call of the plan reached the model, once.
    expect(stack.proxy.calls.filter((call) => call.status === 200)).toHaveLength(total);
    const completed = seen.map((progress) => progress.completed_steps);
    expect(completed).toEqual([...completed].sort((a, b) => a - b));
    expect(completed.some((steps) => steps > 0 && steps < total)).toBe(true);
  }, TASK_TIMEOUT_MS);

  it('keeps to the model\'s concurrency over two worker processes', async () => {
    await Promise.all([startWorker(), startWorker()]);
    const created = await Promise.all(NEWS_ARTICLES.slice(0, 6).map((article) => createTask(article.slice(0, 700))));
    const tasks = await Promise.all(created.map((task) => untilFinal(task.id)));
    expect(tasks.map((task) => task.status)).toEqual(Array(6).fill('succeeded'));
    reportFiguresIfAsked('two workers, one model', { concurrency: CONCURRENCY, tasks: tasks.length, maxInFlight: stack.proxy.maxInFlight, secondsPerCall: secondsPerCall(stack.proxy.calls) });
    // Each worker could take CONCURRENCY calls; together they sent no more than that, and did reach it.
    expect(stack.proxy.maxInFlight).toBe(CONCURRENCY);
  }, TASK_TIMEOUT_MS);

  it('waits out a 429 for as long as its Retry-After says', async () => {
    await startWorker();
    stack.proxy.answer429For(2, 3);
    const task = await untilFinal((await createTask(NEWS_ARTICLES[8].slice(0, 600))).id);
    expect(task.status).toBe('succeeded');
    const [first, second, third] = stack.proxy.calls;
    expect([first.status, second.status, third.status]).toEqual([429, 429, 200]);
    // The retry policy alone would retry after 1 s, then 2 s.
    expect(second.startedAt - (first.endedAt as number)).toBeGreaterThanOrEqual(2_900);
    expect(third.startedAt - (second.endedAt as number)).toBeGreaterThanOrEqual(2_900);
  }, TASK_TIMEOUT_MS);

  it('resumes a document after its worker is SIGKILLed: each chunk is paid for once, plus at most the calls in flight', async () => {
    const first = await startWorker();
    const created = await createTask(newsText(6000));
    await eventually(async () => stack.proxy.calls.filter((call) => call.status === 200).length, (done) => done >= 2, 'two calls answered', TASK_TIMEOUT_MS);
    const inFlightAtKill = stack.proxy.inFlight;
    const answeredAtKill = stack.proxy.calls.filter((call) => call.status === 200).length;
    first.signal('SIGKILL');
    await first.exited;
    // A request the worker wrote just before it died can reach the proxy after its exit, and is a
    // call the model got all the same: count the calls once the dead worker's last bytes are in.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await eventually(async () => stack.proxy.inFlight, (inFlight) => inFlight === 0, "the dead worker's calls to end", 30_000);
    // A call the kill cut off is one the model got but the task's history has no result of: in
    // flight, or answered while the dead worker had not yet reported it. Until the next worker
    // starts, every call the proxy saw is the dead worker's.
    const cutOff = stack.proxy.calls.length - (await modelCallsRecorded(created.id));
    await startWorker();
    const task = await untilFinal(created.id);
    expect(task.status).toBe('succeeded');
    const total = task.progress?.total_steps ?? 0;
    const answered = stack.proxy.calls.filter((call) => call.status === 200);
    const repeats = [...stack.proxy.callsByContent().values()].reduce((sum, count) => sum + count - 1, 0);
    // Every step answered (none lost); the only calls made twice are those the kill cut off.
    reportFiguresIfAsked('worker SIGKILLed mid-document', {
      steps: total,
      answeredBeforeKill: answeredAtKill,
      inFlightAtKill,
      cutOff,
      callsMade: stack.proxy.calls.length,
      callsAnswered: answered.length,
      callsRepeated: repeats,
      stepsLost: total - new Set(answered.map((call) => call.bodyHash)).size,
      secondsPerCall: secondsPerCall(answered),
    });
    expect(new Set(answered.map((call) => call.bodyHash)).size).toBe(total);
    expect(repeats).toBeLessThanOrEqual(cutOff);
    expect(inFlightAtKill).toBeLessThanOrEqual(CONCURRENCY);
  }, TASK_TIMEOUT_MS);

  it('finishes every task after the model server is killed and started again', async () => {
    await startWorker();
    const created = await Promise.all([createTask(NEWS_ARTICLES[1].slice(0, 800)), createTask(NEWS_ARTICLES[2].slice(0, 800))]);
    await eventually(async () => stack.proxy.inFlight, (inFlight) => inFlight > 0, 'a call in flight', 60_000);
    await stack.server.kill();
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await stack.server.restart();
    const tasks = await Promise.all(created.map((task) => untilFinal(task.id)));
    expect(tasks.map((task) => task.status)).toEqual(['succeeded', 'succeeded']);
    // Calls failed while it was down, and were made again once it was back.
    expect(stack.proxy.calls.some((call) => call.status !== 200)).toBe(true);
  }, TASK_TIMEOUT_MS);

  it('answers a create naming a model it does not offer with 400 UNKNOWN_MODEL', async () => {
    const created = await http(`${stack.harness.baseUrl}/v1/ai/tasks`, {
      method: 'POST',
      headers: bearer(stack.key),
      json: { task_type: 'summarize', model: 'gpt-9', input: { text: 'Some text.' } },
    });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({ code: 'UNKNOWN_MODEL', message: `model "gpt-9" is not offered; use one of: extractive, ${REAL_MODEL}` });
  });
});

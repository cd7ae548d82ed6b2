import { randomUUID } from 'node:crypto';
import { defaultNewsSamplePath, loadNewsSample } from '../../eval/news-sample';
import type { Task } from '../../src/sdk';
import { ModelProxy, type ChatCall } from '../../test/support/model-proxy';
import { ModelServer } from '../../test/support/model-server';
import { ASSAY_ROLES, processesOf, type BenchStack } from '../bench-stack';
import { sleep } from '../clock';
import { runClosedLoop } from '../closed-loop';
import { waitUntilQuiet } from '../quiet';
import { spread, type Spread } from '../stats';
import { UsageMeter, type ProcessCost } from '../usage-meter';

// Issue "AI tasks on real models", point 5: the model server driven directly by a client at the
// model's concurrency, beside the same texts through Assay in the same run, the provider-side
// concurrency through Assay, and a backlog of at least 10× that concurrency draining.

export const REAL_MODEL_NAME = 'smollm2';
export const REAL_MODEL_CONTEXT_TOKENS = 2048;
export const REAL_MODEL_MAX_OUTPUT_TOKENS = 64;
// What Assay's provider sends for a text that fits one call (activities/summarize/openai-compatible-provider.ts, kind "chunk").
const SYSTEM_PROMPT = "Summarise the user's text in a few sentences. Answer with the summary only.";
// Each text is at most this long, cut at words: one call each (a chunk may hold ~5,700 characters at a 2,048-token context).
export const REAL_MODEL_TEXT_CHARS = 1000;
// Consecutive texts of one article start this far apart, so no two texts share a sentence.
const SLICE_STRIDE = 1000;
// Texts the warm-up uses (one direct call, one task), so no measured text is ever sent twice in a phase.
const WARMUP_TEXTS = 2;
// Before each phase one call with a text no phase sends: llama.cpp's server reuses what a prompt
// shares with the one it computed last, so without it the first call of the Assay phase, created
// at once with the others and dispatched in any order, could be the direct phase's last text,
// computed again in a third of the time.
const PHASES = 4;
const CALL_TIMEOUT_MS = 120_000;
// A create waits for its task with Prefer: wait (at most 60 s); a task not final by then is waited
// for again by replaying the create (same Idempotency-Key and body), which waits in turn.
const PREFER_WAIT_SECONDS = 60;
const TASK_TIMEOUT_MS = 15 * 60_000;
const IN_FLIGHT_CHECK_MS = 100;

export interface RealModelSettings {
  /** Texts of the direct and the Assay phases (BENCH_MODEL_TASKS). */
  tasks: number;
  /** The model's configured concurrency, also the direct client's (BENCH_MODEL_CONCURRENCY). */
  concurrency: number;
  /** Tasks created at once in the backlog phase (BENCH_MODEL_BACKLOG, default 10 × concurrency). */
  backlog: number;
}

/** One phase: N texts summarised on the model server, by a direct client or as Assay tasks. */
export interface RealModelPhase {
  tasks: number;
  /** First request sent (or first create) to the last answer (or the last task seen final). */
  wallMs: number;
  tasksPerMinute: number;
  /** Chat completions the provider received during the phase (the proxy's count); more than tasks means retries. */
  providerCalls: number;
  /** Calls answered other than 200 at the proxy. */
  providerErrors: number;
  /** The most calls in flight at the provider at once (the proxy's count). */
  maxInFlight: number;
  /** Share of the phase during which at least one call was at the provider: below 100 % the model server sat idle. */
  providerBusy: number;
  /** Each call as the proxy saw it (arrival of its body to the end of its answer), its wait at the model server included. */
  callSeconds: Spread;
  /** Calls (direct) or tasks (through Assay) that did not end with a summary. */
  failures: number;
}

export interface DirectPhase extends RealModelPhase {
  /** Each call as the client saw it, send to answer. */
  clientCallSeconds: Spread;
}

export interface AssayPhase extends RealModelPhase {
  /** Each task from its create to the client seeing it final. */
  taskSeconds: Spread;
  /** From the first create to the last close time the server reported (no client in it). */
  serverTasksPerMinute: number;
  /** The longest a task waited from its create until its call reached the provider. */
  longestWaitSeconds: number;
  /** From the first create until the last task was seen final. */
  lastTaskSeconds: number;
  /** From the first create until the first call reached the provider: the model server idle at the start. */
  firstCallSeconds: number;
  /** From the end of the last call until the last task was seen final: the model server idle at the end. */
  afterLastCallSeconds: number;
  /** CPU of the stack's processes over the phase (the client's included). */
  costs: ProcessCost[];
}

export interface RealModelFigures {
  settings: RealModelSettings;
  model: { name: string; contextTokens: number; maxOutputTokens: number; textChars: { min: number; max: number } };
  direct: DirectPhase;
  assay: AssayPhase;
  /**
   * The backlog's texts sent directly, just before the backlog: the pace the drain is compared
   * with. Texts differ in how many tokens the model answers with (fewer than max_tokens when it
   * stops early), which moved the direct pace by 10 % between two sets of texts.
   */
  directBacklog: DirectPhase;
  backlog: AssayPhase;
}

/** The model server (SmolLM2-135M behind llama.cpp's server, one request at a time) behind a counting proxy. */
export interface ModelBackend {
  server: ModelServer;
  proxy: ModelProxy;
  stop(): Promise<void>;
}

export async function startModelBackend(): Promise<ModelBackend> {
  const server = await ModelServer.start({ contextTokens: REAL_MODEL_CONTEXT_TOKENS, alias: REAL_MODEL_NAME });
  try {
    const proxy = await ModelProxy.start(server.baseUrl);
    return {
      server,
      proxy,
      stop: async () => {
        await proxy.close();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** ASSAY_MODELS for the API and the worker: the model behind the proxy, at the configured concurrency. */
export function realModelEnv(backend: ModelBackend, settings: RealModelSettings): NodeJS.ProcessEnv {
  return {
    ASSAY_MODELS: JSON.stringify([
      {
        name: REAL_MODEL_NAME,
        base_url: backend.proxy.baseUrl,
        context_tokens: REAL_MODEL_CONTEXT_TOKENS,
        max_output_tokens: REAL_MODEL_MAX_OUTPUT_TOKENS,
        concurrency: settings.concurrency,
      },
    ]),
  };
}

/**
 * Warm-up (one direct call, one task, discarded), then the phases one after the other on the same
 * model server: N texts sent directly at the model's concurrency, the same N texts in the same
 * order as tasks created at once through Assay; then a backlog's texts (others) sent directly the
 * same way, and the same texts created at once through Assay. Each text is sent once per phase,
 * and only a direct phase and its Assay phase share texts, by design; before each phase the stack
 * settles, the previous calls have ended, and one call with an unused text goes first (PHASES).
 */
export async function runRealModelScenario(
  stack: BenchStack,
  backend: ModelBackend,
  settings: RealModelSettings,
  progress: (line: string) => void = () => undefined,
): Promise<RealModelFigures> {
  const texts = distinctTexts(WARMUP_TEXTS + PHASES + settings.tasks + settings.backlog);
  const [warmupDirect, warmupTask] = texts;
  const separators = texts.slice(WARMUP_TEXTS, WARMUP_TEXTS + PHASES);
  const measured = texts.slice(WARMUP_TEXTS + PHASES, WARMUP_TEXTS + PHASES + settings.tasks);
  const backlogTexts = texts.slice(WARMUP_TEXTS + PHASES + settings.tasks);
  const proxy = backend.proxy;
  const settle = async () => {
    await untilModelIdle(stack, proxy);
    if (!(await chatCompletion(proxy.baseUrl, separators.shift() as string)).ok) throw new Error('the model server did not answer the call between two phases');
    proxy.resetCounts();
  };

  // Warm-up: the model's weights in memory, the worker's model queue and slots, the API's connections.
  if (!(await chatCompletion(proxy.baseUrl, warmupDirect)).ok) throw new Error(`the model server did not answer the warm-up call; its output:\n${backend.server.log}`);
  const warm = await runTask(stack, warmupTask);
  if (warm.status !== 'succeeded') throw new Error(`the warm-up task on ${REAL_MODEL_NAME} ended ${warm.status}`);

  await settle();
  const direct = await runDirect(proxy, measured, settings.concurrency);
  progress(`[real-model] direct: ${measured.length} calls in ${(direct.wallMs / 1000).toFixed(1)} s (${direct.tasksPerMinute.toFixed(1)}/min), at most ${direct.maxInFlight} in flight`);

  await settle();
  const assay = await runThroughAssay(stack, proxy, measured);
  progress(
    `[real-model] through Assay: ${measured.length} tasks in ${(assay.wallMs / 1000).toFixed(1)} s (${assay.tasksPerMinute.toFixed(1)}/min, ${(assay.tasksPerMinute / direct.tasksPerMinute).toFixed(2)}× direct), at most ${assay.maxInFlight} in flight`,
  );

  await settle();
  const directBacklog = await runDirect(proxy, backlogTexts, settings.concurrency);
  progress(`[real-model] direct, the backlog's texts: ${backlogTexts.length} calls in ${(directBacklog.wallMs / 1000).toFixed(1)} s (${directBacklog.tasksPerMinute.toFixed(1)}/min)`);

  await settle();
  const backlog = await runThroughAssay(stack, proxy, backlogTexts);
  progress(
    `[real-model] backlog: ${backlogTexts.length} tasks drained in ${(backlog.wallMs / 1000).toFixed(1)} s (${backlog.tasksPerMinute.toFixed(1)}/min, ${(backlog.tasksPerMinute / directBacklog.tasksPerMinute).toFixed(2)}× direct), at most ${backlog.maxInFlight} in flight`,
  );

  const lengths = texts.map((text) => text.length);
  return {
    settings,
    model: {
      name: REAL_MODEL_NAME,
      contextTokens: REAL_MODEL_CONTEXT_TOKENS,
      maxOutputTokens: REAL_MODEL_MAX_OUTPUT_TOKENS,
      textChars: { min: Math.min(...lengths), max: Math.max(...lengths) },
    },
    direct,
    assay,
    directBacklog,
    backlog,
  };
}

/** Once the stack is quiet and the model server has answered every call in flight (or a call's timeout has passed). */
export async function untilModelIdle(stack: BenchStack, proxy: ModelProxy): Promise<void> {
  await waitUntilQuiet(stack);
  const deadline = Date.now() + CALL_TIMEOUT_MS;
  while (proxy.inFlight > 0 && Date.now() < deadline) await sleep(IN_FLIGHT_CHECK_MS);
}

/** `count` distinct texts of at most REAL_MODEL_TEXT_CHARS, cut at words: each article's first slice, then each one's second, and so on. */
export function distinctTexts(count: number): string[] {
  const articles = loadNewsSample(defaultNewsSamplePath(__dirname)).map((item) => item.article);
  const texts: string[] = [];
  for (let slice = 0; texts.length < count; slice++) {
    const before = texts.length;
    for (const article of articles) {
      if (texts.length >= count) break;
      const text = sliceOf(article, slice * SLICE_STRIDE);
      if (text !== undefined) texts.push(text);
    }
    if (texts.length === before) throw new Error(`the news sample holds ${texts.length} distinct texts of about ${REAL_MODEL_TEXT_CHARS} characters, fewer than the ${count} asked for`);
  }
  return texts;
}

/** REAL_MODEL_TEXT_CHARS of the article from `start`, whole words only; none when the article ends before that. */
function sliceOf(article: string, start: number): string | undefined {
  if (article.length < start + REAL_MODEL_TEXT_CHARS) return undefined;
  const from = start === 0 ? 0 : article.indexOf(' ', start) + 1;
  const to = article.lastIndexOf(' ', from + REAL_MODEL_TEXT_CHARS);
  const text = article.slice(from, to > from ? to : from + REAL_MODEL_TEXT_CHARS).trim();
  return text === '' ? undefined : text;
}

interface CallResult {
  ok: boolean;
  ms: number;
}

/** One chat completion exactly as Assay's provider sends it for a text that fits one call. */
async function chatCompletion(baseUrl: string, text: string): Promise<CallResult> {
  const startedAt = performance.now();
  try {
    const response = await fetch(`${baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: REAL_MODEL_NAME,
        temperature: 0,
        max_tokens: REAL_MODEL_MAX_OUTPUT_TOKENS,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: text },
        ],
      }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const body = (await response.json().catch(() => undefined)) as { choices?: Array<{ message?: { content?: string | null } }> } | undefined;
    const summary = body?.choices?.[0]?.message?.content?.trim();
    return { ok: response.status === 200 && !!summary, ms: performance.now() - startedAt };
  } catch {
    return { ok: false, ms: performance.now() - startedAt };
  }
}

/** The texts sent straight to the provider, at most `concurrency` at once, each as soon as a lane is free. */
async function runDirect(proxy: ModelProxy, texts: string[], concurrency: number): Promise<DirectPhase> {
  const results: CallResult[] = [];
  const startedAt = Date.now();
  const started = performance.now();
  await runClosedLoop(texts.length, concurrency, async (index) => {
    results.push(await chatCompletion(proxy.baseUrl, texts[index]));
  });
  const wallMs = performance.now() - started;
  return {
    ...phaseFigure(proxy, texts.length, wallMs, startedAt, results.filter((result) => !result.ok).length),
    clientCallSeconds: spread(results.map((result) => result.ms / 1000)),
  };
}

export interface TaskRun {
  text: string;
  status: Task['status'] | 'refused';
  /** Wall-clock ms: when the create was sent, when the client saw the task final, the server's close time. */
  createdAt: number;
  finalAt: number;
  closedAt: number;
}

/** The texts as tasks on the model, all created at once; each awaited with Prefer: wait. */
async function runThroughAssay(stack: BenchStack, proxy: ModelProxy, texts: string[]): Promise<AssayPhase> {
  const meter = new UsageMeter(processesOf(stack, ASSAY_ROLES));
  meter.start();
  const startedAt = Date.now();
  const runs = await Promise.all(texts.map((text) => runTask(stack, text)));
  const costs = meter.stop();
  const lastFinal = Math.max(...runs.map((run) => run.finalAt));
  const lastClose = Math.max(...runs.map((run) => run.closedAt));
  const wallMs = lastFinal - startedAt;
  const firstCall = new Map<string, ChatCall>();
  for (const call of proxy.calls) if (!firstCall.has(call.userContent)) firstCall.set(call.userContent, call);
  const callStarts = proxy.calls.map((call) => call.startedAt);
  const callEnds = proxy.calls.map((call) => call.endedAt ?? Number.NaN);
  const waits = runs.flatMap((run) => {
    const call = firstCall.get(run.text);
    return call ? [(call.startedAt - run.createdAt) / 1000] : [];
  });
  return {
    ...phaseFigure(proxy, texts.length, wallMs, startedAt, runs.filter((run) => run.status !== 'succeeded').length),
    taskSeconds: spread(runs.map((run) => (run.finalAt - run.createdAt) / 1000)),
    serverTasksPerMinute: Number.isFinite(lastClose) ? texts.length / ((lastClose - startedAt) / 60_000) : Number.NaN,
    longestWaitSeconds: waits.length > 0 ? Math.max(...waits) : Number.NaN,
    lastTaskSeconds: wallMs / 1000,
    firstCallSeconds: (Math.min(...callStarts) - startedAt) / 1000,
    afterLastCallSeconds: (lastFinal - Math.max(...callEnds)) / 1000,
    costs,
  };
}

/** One task on the model: created with Prefer: wait, the create replayed (which waits again) until the task is final. */
export async function runTask(stack: BenchStack, text: string): Promise<TaskRun> {
  const idempotencyKey = randomUUID();
  const createdAt = Date.now();
  const deadline = createdAt + TASK_TIMEOUT_MS;
  for (;;) {
    const task = await createWaiting(stack, text, idempotencyKey);
    if (!task) return { text, status: 'refused', createdAt, finalAt: Date.now(), closedAt: Number.NaN };
    if (task.status === 'succeeded' || task.status === 'failed' || Date.now() > deadline) {
      return { text, status: task.status, createdAt, finalAt: Date.now(), closedAt: Date.parse(task.updated_at) };
    }
  }
}

async function createWaiting(stack: BenchStack, text: string, idempotencyKey: string): Promise<Task | undefined> {
  try {
    const response = await fetch(`${stack.baseUrl}/v1/ai/tasks`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stack.apiKey}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
        prefer: `wait=${PREFER_WAIT_SECONDS}`,
      },
      body: JSON.stringify({ task_type: 'summarize', model: REAL_MODEL_NAME, input: { text } }),
      signal: AbortSignal.timeout((PREFER_WAIT_SECONDS + 30) * 1000),
    });
    if (response.status !== 200 && response.status !== 202) {
      await response.body?.cancel();
      return undefined;
    }
    return (await response.json()) as Task;
  } catch {
    return undefined;
  }
}

/** What the proxy saw of the phase's calls. */
function phaseFigure(proxy: ModelProxy, tasks: number, wallMs: number, startedAt: number, failures: number): RealModelPhase {
  const calls = proxy.calls.filter((call) => call.endedAt !== undefined);
  return {
    tasks,
    wallMs,
    tasksPerMinute: tasks / (wallMs / 60_000),
    providerCalls: proxy.calls.length,
    providerErrors: proxy.calls.filter((call) => call.status !== 200).length,
    maxInFlight: proxy.maxInFlight,
    providerBusy: busyShare(calls, startedAt, startedAt + wallMs),
    callSeconds: spread(calls.map((call) => ((call.endedAt as number) - call.startedAt) / 1000)),
    failures,
  };
}

/** The share of [from, to] covered by at least one call. */
function busyShare(calls: ChatCall[], from: number, to: number): number {
  const intervals = calls.map((call) => [Math.max(from, call.startedAt), Math.min(to, call.endedAt as number)]).sort((a, b) => a[0] - b[0]);
  let busy = 0;
  let coveredTo = from;
  for (const [start, end] of intervals) {
    if (end <= coveredTo) continue;
    busy += end - Math.max(start, coveredTo);
    coveredTo = end;
  }
  return to > from ? busy / (to - from) : Number.NaN;
}

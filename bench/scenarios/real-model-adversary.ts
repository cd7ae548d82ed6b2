import type { AssayClient } from '../../src/sdk';
import type { BenchStack } from '../bench-stack';
import { benchClient } from '../bench-client';
import { sleep } from '../clock';
import { spread, type Spread } from '../stats';
import { patiently, requireIssueKey, organisation } from './noisy-neighbour';
import { REAL_MODEL_NAME, distinctTexts, runTask, untilModelIdle, type ModelBackend, type TaskRun } from './real-model';

export interface RealModelAdversarySettings {
  /** B's tasks in each phase, one created every `neighbourIntervalMs` (BENCH_MODEL_NEIGHBOUR_TASKS). */
  neighbourTasks: number;
  neighbourIntervalMs: number;
  /** A's batch on the model, at `high` (BENCH_MODEL_ADVERSARY_BATCH). */
  adversaryBatchItems: number;
  /** A's creates on the model, at `high`, sent as fast as its limits allow (BENCH_MODEL_ADVERSARY_CREATES). */
  adversaryCreates: number;
}

/** B's tasks on the model in one phase. */
export interface NeighbourOnModel {
  tasks: number;
  /** Each task from its create until its call reached the model server. */
  waitSeconds: Spread;
  /** Each task from its create until the client saw it final. */
  taskSeconds: Spread;
  failures: number;
}

export interface RealModelAdversaryFigures {
  settings: RealModelAdversarySettings;
  /** The model's declared concurrency: the calls B may wait for before its own starts. */
  concurrency: number;
  alone: NeighbourOnModel;
  beside: NeighbourOnModel;
  /** Every call the model server answered while B ran beside A, arrival to answer. */
  callSeconds: Spread;
  maxInFlight: number;
  /** A's creates accepted, and its calls the model server answered while B ran. */
  adversaryCreated: number;
  adversaryCalls: number;
}

const ADVERSARY_CREATORS = 4;
// A's texts, used in turn: more than the model has slots, so no call repeats the prompt just before it.
const ADVERSARY_TEXTS = 40;
const FILL_TIMEOUT_MS = 5 * 60_000;
const IN_FLIGHT_CHECK_MS = 200;

/**
 * Issue 51 on a real model: organisation B's `normal` tasks, one every few seconds, alone and then
 * beside organisation A's batch and creates on the same model, all `high`. Fair dispatch on the
 * model's queue should let each of B's tasks wait at most for the calls already at the model
 * server (one per concurrency slot) before its own call starts. B is the stack's own organisation.
 */
export async function runRealModelAdversary(
  stack: BenchStack,
  backend: ModelBackend,
  concurrency: number,
  settings: RealModelAdversarySettings,
  progress: (line: string) => void = () => undefined,
): Promise<RealModelAdversaryFigures> {
  const [warmup, ...texts] = distinctTexts(1 + 2 * settings.neighbourTasks + ADVERSARY_TEXTS);
  const aloneTexts = texts.slice(0, settings.neighbourTasks);
  const besideTexts = texts.slice(settings.neighbourTasks, 2 * settings.neighbourTasks);
  const adversaryTexts = texts.slice(2 * settings.neighbourTasks);
  const proxy = backend.proxy;

  // The model's weights in memory, the worker's model queue and slots, the API's connections.
  const warm = await runTask(stack, warmup);
  if (warm.status !== 'succeeded') throw new Error(`the warm-up task on ${REAL_MODEL_NAME} ended ${warm.status}`);
  await untilModelIdle(stack, proxy);
  const alone = await neighbourPhase(stack, backend, aloneTexts, settings.neighbourIntervalMs);
  progress(`[fair-share-model] B alone: waited ${alone.waitSeconds.p50.toFixed(1)} s (max ${alone.waitSeconds.max.toFixed(1)} s) for its call, ${alone.failures} failures`);

  await untilModelIdle(stack, proxy);
  const adversary = benchClient(stack, await requireIssueKey(stack)(organisation('model-adversary'), 'test'));
  const created: string[] = [];
  let textIndex = 0;
  const nextText = () => adversaryTexts[textIndex++ % adversaryTexts.length];
  const batch = await patiently(
    () => adversary.createBatch({ task_type: 'summarize', model: REAL_MODEL_NAME, priority: 'high', items: Array.from({ length: settings.adversaryBatchItems }, (_, index) => ({ key: `a-${index}`, input: { text: nextText() } })) }),
    () => undefined,
  );
  let creates = 0;
  const creator = async () => {
    while (creates < settings.adversaryCreates) {
      creates += 1;
      const task = await patiently(() => adversary.createTask({ task_type: 'summarize', model: REAL_MODEL_NAME, priority: 'high', input: { text: nextText() } }), () => undefined).catch(() => undefined);
      if (task) created.push(task.id);
    }
  };
  const flood = Promise.all(Array.from({ length: ADVERSARY_CREATORS }, creator));
  // B starts once A's work waits at the model server: every slot taken, more queued behind.
  await untilEverySlotTaken(backend, concurrency);
  proxy.resetCounts();
  const beside = await neighbourPhase(stack, backend, besideTexts, settings.neighbourIntervalMs, false);
  const calls = proxy.calls.filter((call) => call.endedAt !== undefined);
  const besideSet = new Set(besideTexts);
  const figures: RealModelAdversaryFigures = {
    settings,
    concurrency,
    alone,
    beside,
    callSeconds: spread(calls.map((call) => ((call.endedAt as number) - call.startedAt) / 1000)),
    maxInFlight: proxy.maxInFlight,
    adversaryCreated: created.length,
    adversaryCalls: calls.filter((call) => !besideSet.has(call.userContent)).length,
  };
  progress(`[fair-share-model] B beside the adversary: waited ${beside.waitSeconds.p50.toFixed(1)} s (max ${beside.waitSeconds.max.toFixed(1)} s) for its call; calls took ${figures.callSeconds.p50.toFixed(1)} s (max ${figures.callSeconds.max.toFixed(1)} s)`);
  await flood;
  await cancelAll(adversary, batch.id, created);
  await untilModelIdle(stack, proxy);
  return figures;
}

/** B's texts as tasks, one created every `intervalMs` (each awaited with Prefer: wait), and when each one's call reached the model server. */
async function neighbourPhase(stack: BenchStack, backend: ModelBackend, texts: string[], intervalMs: number, reset = true): Promise<NeighbourOnModel> {
  if (reset) backend.proxy.resetCounts();
  const runs: Promise<TaskRun>[] = [];
  for (const text of texts) {
    runs.push(runTask(stack, text));
    await sleep(intervalMs);
  }
  const finished = await Promise.all(runs);
  const firstCall = new Map<string, number>();
  for (const call of backend.proxy.calls) if (!firstCall.has(call.userContent)) firstCall.set(call.userContent, call.startedAt);
  const waits = finished.flatMap((run) => (firstCall.has(run.text) ? [((firstCall.get(run.text) as number) - run.createdAt) / 1000] : []));
  return {
    tasks: texts.length,
    waitSeconds: spread(waits),
    taskSeconds: spread(finished.map((run) => (run.finalAt - run.createdAt) / 1000)),
    failures: finished.filter((run) => run.status !== 'succeeded').length,
  };
}

/** A's batch and each of its tasks canceled, so the next phase (or run) starts on an idle model. */
async function cancelAll(adversary: AssayClient, batchId: string, taskIds: string[]): Promise<void> {
  await adversary.cancelBatch(batchId).catch(() => undefined);
  for (const id of taskIds) await patiently(() => adversary.cancelTask(id), () => undefined).catch(() => undefined);
}

async function untilEverySlotTaken(backend: ModelBackend, concurrency: number): Promise<void> {
  const deadline = Date.now() + FILL_TIMEOUT_MS;
  while (backend.proxy.inFlight < concurrency) {
    if (Date.now() > deadline) throw new Error(`the adversary's calls did not fill the model's ${concurrency} slots within 5 minutes`);
    await sleep(IN_FLIGHT_CHECK_MS);
  }
}

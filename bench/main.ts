import * as fs from 'node:fs';
import { runMain } from '../src/common/run-main';
import { MAX_BATCH_ITEMS } from '../src/contract';
import { startBenchStack, type BenchStack } from './bench-stack';
import { startClusterBenchStack } from './cluster-bench-stack';
import { startOtlpSink } from './otlp-sink';
import { describeLoad, describeMachine } from './machine';
import { waitUntilQuiet } from './quiet';
import {
  costTable,
  describeDispatch,
  describeEngineRun,
  describeLikeForLike,
  engineGapTable,
  fairShareTable,
  getLatencyTable,
  hostileCallersTable,
  latencyTable,
  noisyNeighbourTable,
  overloadTable,
  payloadCodecTable,
  realModelNotes,
  realModelAdversaryTable,
  realModelTable,
  reviewScaleTable,
  summariserTable,
  targetTable,
  throughputTable,
} from './report';
import { runAdversary, runBatchAlone, runCreatesAlone, type AloneDrain, type FairShareFigures, type FairShareSettings } from './scenarios/adversarial-neighbour';
import { runApiThroughputScenario, type ApiThroughputFigure } from './scenarios/api-throughput';
import { runEngineGapScenario, type EngineGapFigures } from './scenarios/engine-gap';
import { runGetLatencyScenario } from './scenarios/get-latency';
import { benchClient } from './bench-client';
import { BENCH_TASK_INPUT } from './task-input';
import { runHostileCallersScenario, type HostileCallersFigures, type HostileCallersSettings } from './scenarios/hostile-callers';
import { runLatencyScenario, type LatencyFigure } from './scenarios/latency-at-rate';
import type { TailBreakdown } from './scenarios/tail-breakdown';
import type { Distribution } from './stats';
import { runBatchFlood, runFlood, runQuietNeighbour, type Dispatch, type FloodRun, type NeighbourSettings, type NoisyNeighbourFigures } from './scenarios/noisy-neighbour';
import { runOverloadScenario, type OverloadFigures, type OverloadSettings } from './scenarios/overload';
import { runPayloadCodecScenario } from './scenarios/payload-codec';
import { runRawEngineScenario } from './scenarios/raw-engine';
import { runRealModelAdversary, type RealModelAdversaryFigures, type RealModelAdversarySettings } from './scenarios/real-model-adversary';
import { realModelEnv, runRealModelScenario, startModelBackend, type ModelBackend, type RealModelFigures, type RealModelSettings } from './scenarios/real-model';
import { REVIEW_SCALE_FIRST_SIZE, runReviewScaleScenario, type ReviewScaleFigures, type ReviewScaleSettings } from './scenarios/review-scale';
import { runSummariserScenario } from './scenarios/summariser';
import type { ThroughputFigure } from './scenarios/throughput';
import { checkClusterTargets, checkNeighbourTargets, checkRealModelTargets, checkTargets, halfRawRate, realModelFailures, type BenchFigures } from './targets';

// Issue 8: a whole run must stay under 10 minutes; the default settings take four to six on 2 busy cores.
const RUN_DEADLINE_MS = 10 * 60_000;
// Issue 20's floods take a few minutes on a quiet machine; on a busy one a 2,000-task flood
// drains at a tenth of the speed, and the scenario gets a deadline of its own on top.
const NEIGHBOUR_DEADLINE_MS = 30 * 60_000;
// A batch of 10,000 items is admitted at the organisation's create rate (600/min as shipped), so it
// drains in about 17 minutes, well past the budget of the whole run: a scenario of its own, at most
// 30 minutes for the batch, with B alone first.
const NEIGHBOUR_BATCH_DEADLINE_MS = 40 * 60_000;
// The batch's stack is Assay as shipped: fairness on and the per-organisation create limit (the batch is one create).
const AS_SHIPPED: Dispatch = { fairness: true, organisationLimit: true };
const LATENCY_RATES = [10, 50, 100];
// Issue 15: the cluster runs ten processes on the same cores, so lower rates, and no GET or neighbour scenarios.
const CLUSTER_LATENCY_RATES = [10, 25, 50];
const CLUSTER_DEADLINE_MS = 20 * 60_000;
// The real model: a few minutes on 2 cores (the model server's start and any first compile come before the deadline counts).
const REAL_MODEL_DEADLINE_MS = 15 * 60_000;
// The engine gap: a warm-up and 3 × 3 runs of 1,000 tasks by default, a minute or less each on a
// quiet machine; the rest is room for a busy one. Not part of the whole run, whose budget it would
// not fit.
const ENGINE_GAP_DEADLINE_MS = 30 * 60_000;
// Issue 27's review path: creating 10,000 assessments and running their checks takes most of it on
// 2 cores; the measurements themselves a minute or two. Not part of the whole run either.
const REVIEW_SCALE_DEADLINE_MS = 90 * 60_000;
// Overload: capacity, then three windows of a minute each and the backlog each leaves (at 4×, about
// three minutes of draining); not part of the whole run either.
const OVERLOAD_DEADLINE_MS = 30 * 60_000;
// Fair share: two stacks, each organisation's work alone, then the adversary for BENCH_ADVERSARY_SECONDS.
const FAIR_SHARE_DEADLINE_MS = 30 * 60_000;
// Hostile callers: three phases of BENCH_HOSTILE_SECONDS each, and the stack's start.
const HOSTILE_CALLERS_DEADLINE_MS = 10 * 60_000;
const GET_RATES = [200, 500];
const WARMUP_TASKS = 200;

interface BenchSettings {
  tasks: number;
  concurrency: number;
  rateSeconds: number;
  getSeconds: number;
  neighbour: NeighbourSettings;
  realModel: RealModelSettings;
  fairShareModel: RealModelAdversarySettings;
  /** Runs of each of the engine gap's modes (BENCH_ENGINE_RUNS). */
  engineRuns: number;
  review: ReviewScaleSettings;
  overload: OverloadSettings;
  fairShare: FairShareSettings;
  hostileCallers: HostileCallersSettings;
  /** BENCH_TRACING=on: the API and the worker trace every request and task, exporting over OTLP/HTTP to a sink in the bench. */
  tracing: boolean;
  jsonFile?: string;
}

const SCENARIOS = ['noisy-neighbour', 'noisy-neighbour-batch', 'fair-share', 'fair-share-model', 'real-model', 'engine-gap', 'create-cost', 'review-scale', 'overload', 'hostile-callers'] as const;
type Scenario = (typeof SCENARIOS)[number];

/** `--scenario <name>` runs that scenario alone; without it, every scenario runs but noisy-neighbour-batch, fair-share, fair-share-model, engine-gap, create-cost, review-scale, overload and hostile-callers, which take too long for the whole run. */
function readScenario(args: string[]): Scenario | undefined {
  const index = args.indexOf('--scenario');
  if (index < 0) return undefined;
  const name = args[index + 1];
  if (!SCENARIOS.includes(name as Scenario)) throw new Error(`--scenario must be one of ${SCENARIOS.join(', ')}, got ${name}`);
  return name as Scenario;
}

function readSettings(env: NodeJS.ProcessEnv): BenchSettings {
  const positive = (name: string, fallback: number) => {
    const value = env[name] === undefined || env[name] === '' ? fallback : Number(env[name]);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got ${env[name]}`);
    return value;
  };
  const modelConcurrency = positive('BENCH_MODEL_CONCURRENCY', 2);
  return {
    tasks: positive('BENCH_TASKS', 1000),
    concurrency: positive('BENCH_CONCURRENCY', 32),
    rateSeconds: positive('BENCH_RATE_SECONDS', 15),
    getSeconds: positive('BENCH_GET_SECONDS', 10),
    fairShare: {
      adversaryBatchItems: positive('BENCH_ADVERSARY_BATCH', MAX_BATCH_ITEMS),
      adversaryMs: positive('BENCH_ADVERSARY_SECONDS', 120) * 1000,
    },
    neighbour: {
      floodTasks: positive('BENCH_FLOOD_TASKS', 2000),
      neighbourRatePerSecond: positive('BENCH_NEIGHBOUR_RATE', 5),
      quietMs: positive('BENCH_NEIGHBOUR_QUIET_SECONDS', 15) * 1000,
    },
    realModel: {
      tasks: positive('BENCH_MODEL_TASKS', 12),
      concurrency: modelConcurrency,
      // "A backlog of at least 10× its capacity": ten times the calls the model may have in flight.
      backlog: positive('BENCH_MODEL_BACKLOG', 10 * modelConcurrency),
    },
    fairShareModel: {
      neighbourTasks: positive('BENCH_MODEL_NEIGHBOUR_TASKS', 8),
      neighbourIntervalMs: positive('BENCH_MODEL_NEIGHBOUR_INTERVAL_SECONDS', 12) * 1000,
      adversaryBatchItems: positive('BENCH_MODEL_ADVERSARY_BATCH', 40),
      adversaryCreates: positive('BENCH_MODEL_ADVERSARY_CREATES', 100),
    },
    engineRuns: positive('BENCH_ENGINE_RUNS', 3),
    review: { assessments: positive('BENCH_REVIEW_ASSESSMENTS', 10_000), organisations: 50, samples: positive('BENCH_REVIEW_SAMPLES', 200) },
    overload: { multiples: [1, 2, 4], windowMs: positive('BENCH_OVERLOAD_SECONDS', 60) * 1000, capacityTasks: positive('BENCH_TASKS', 1000), concurrency: positive('BENCH_CONCURRENCY', 32) },
    hostileCallers: { phaseMs: positive('BENCH_HOSTILE_SECONDS', 30) * 1000, clients: 16, bodyBytes: 30 * 2 ** 20, getsPerSecond: 50 },
    tracing: onOff('BENCH_TRACING', env.BENCH_TRACING),
    jsonFile: env.BENCH_JSON || undefined,
  };
}

function onOff(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'off') return false;
  if (value === 'on') return true;
  throw new Error(`${name} must be on or off, got ${value}`);
}

function say(message: string): void {
  process.stdout.write(`${message}\n`);
}

/** The cluster's start-up progress, on stderr beside the bench's own. */
function clusterLog(message: string): void {
  process.stderr.write(`[cluster] ${message}\n`);
}

function section(title: string, body: string): void {
  say(`\n### ${title}\n\n${body}\n`);
}

/** Anything the deadline must stop before the bench exits: stacks, the model server. */
interface Running {
  stop(): Promise<void>;
}

/**
 * `npm run bench`: every scenario of issues 8 and 20 and the real model against the embedded
 * default (or a given deployment), or the one `--scenario` names; with `--cluster`, issue 15's raw
 * engine vs Assay and latencies on `npm run cluster`'s topology.
 */
runMain('bench', async () => {
  const settings = readSettings(process.env);
  const args = process.argv.slice(2);
  const scenario = readScenario(args);
  const onCluster = args.includes('--cluster');
  if (onCluster && scenario !== undefined && scenario !== 'engine-gap' && scenario !== 'fair-share') throw new Error('--cluster runs its own scenarios, or engine-gap or fair-share alone; leave out any other --scenario');
  if (onCluster && settings.tracing) throw new Error('BENCH_TRACING=on is measured on the embedded default only; leave it out with --cluster');
  if ((scenario === 'engine-gap' || scenario === 'create-cost') && settings.tracing) throw new Error(`BENCH_TRACING=on is measured by the whole run; leave it out with --scenario ${scenario}`);
  if (scenario === 'review-scale' && settings.review.assessments <= REVIEW_SCALE_FIRST_SIZE) {
    throw new Error(`BENCH_REVIEW_ASSESSMENTS is the larger queue, compared with ${REVIEW_SCALE_FIRST_SIZE}: more than that, got ${settings.review.assessments}`);
  }
  if (scenario === 'noisy-neighbour-batch' && settings.neighbour.floodTasks > MAX_BATCH_ITEMS) {
    throw new Error(`BENCH_FLOOD_TASKS is the batch's items with --scenario noisy-neighbour-batch: at most ${MAX_BATCH_ITEMS}, got ${settings.neighbour.floodTasks}`);
  }
  const running = new Set<Running>();
  const startedAt = new Date();
  say(`# Assay bench, ${startedAt.toISOString()}\n\nMachine: ${describeMachine()}`);
  // Before the deadline counts: a first run compiles the model server (minutes).
  const onModel = scenario === 'real-model' || scenario === 'fair-share-model';
  const model = !onCluster && (scenario === undefined || onModel) ? await startRealModel(onModel) : undefined;
  if (model) running.add(model);
  const deadlineMs = scenario === 'fair-share'
    ? FAIR_SHARE_DEADLINE_MS
    : onCluster
    ? scenario === 'engine-gap'
      ? ENGINE_GAP_DEADLINE_MS
      : CLUSTER_DEADLINE_MS
    : scenario === 'noisy-neighbour-batch'
      ? NEIGHBOUR_BATCH_DEADLINE_MS
      : scenario === 'fair-share-model'
        ? REAL_MODEL_DEADLINE_MS
      : scenario === 'hostile-callers'
        ? HOSTILE_CALLERS_DEADLINE_MS
      : scenario === 'engine-gap' || scenario === 'create-cost'
        ? ENGINE_GAP_DEADLINE_MS
        : scenario === 'review-scale'
          ? REVIEW_SCALE_DEADLINE_MS
          : scenario === 'overload'
            ? OVERLOAD_DEADLINE_MS
            : (scenario === undefined ? RUN_DEADLINE_MS : 0) + (scenario !== 'real-model' ? NEIGHBOUR_DEADLINE_MS : 0) + (model ? REAL_MODEL_DEADLINE_MS : 0);
  const deadline = setTimeout(() => {
    process.stderr.write(`[bench] still running after ${deadlineMs / 60_000} minutes; giving up\n`);
    // The children must not outlive the bench.
    void Promise.all([...running].map((child) => child.stop())).finally(() => process.exit(1));
  }, deadlineMs);
  deadline.unref();
  try {
    if (onCluster && scenario !== undefined) {
      const figures =
        scenario === 'engine-gap'
          ? { engineGap: await runEngineGap(settings, running, { startStack: () => startClusterBenchStack(clusterLog, { rawLikeForLike: true }) }) }
          : { fairShare: await runFairShare(settings, running, (createLimits) => startClusterBenchStack(clusterLog, { createLimits })) };
      say(`Whole run: ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s; load average now ${describeLoad()}`);
      if (settings.jsonFile) fs.writeFileSync(settings.jsonFile, `${JSON.stringify({ startedAt, settings, cluster: true, ...figures }, omitIds, 2)}\n`);
      return;
    }
    if (onCluster) {
      await runOnCluster(settings, running, startedAt);
      return;
    }
    const json: Record<string, unknown> = { startedAt, settings };
    if (scenario === 'engine-gap') json.engineGap = await runEngineGap(settings, running);
    else if (scenario === 'create-cost') json.createCost = await runCreateCost(settings, running);
    else if (scenario === 'review-scale') json.reviewScale = await runReviewScale(settings, running);
    else if (scenario === 'overload') json.overload = await runOverload(settings, running);
    else if (scenario === 'fair-share') json.fairShare = await runFairShare(settings, running);
    else if (scenario === 'hostile-callers') json.hostileCallers = await runHostileCallers(settings, running);
    else if (!onModel) await runOnEmbeddedDefault(settings, scenario, running, json);
    if (model && scenario === 'fair-share-model') json.fairShareModel = await runFairShareOnModel(settings, model, running);
    else if (model) {
      try {
        json.realModel = await runRealModel(settings, model, running);
      } catch (error) {
        // In a whole run the other sections' figures still get written.
        if (scenario === 'real-model') throw error;
        say(`\n(Real model failed: ${(error as Error).message.split('\n')[0]})`);
        process.exitCode = 1;
      }
    }
    say(`Whole run: ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s; load average now ${describeLoad()}`);
    if (settings.jsonFile) fs.writeFileSync(settings.jsonFile, `${JSON.stringify(json, omitIds, 2)}\n`);
  } finally {
    if (model) {
      await model.stop();
      running.delete(model);
    }
  }
});

/** Every scenario but the real model's on the bench's main stack (or the given deployment), their figures into `json`. */
async function runOnEmbeddedDefault(settings: BenchSettings, scenario: Scenario | undefined, running: Set<Running>, json: Record<string, unknown>): Promise<void> {
  const summariser = scenario === undefined ? runSummariserScenario() : undefined;
  if (summariser) section('Summariser (extractive, in process)', summariserTable(summariser));

  if (scenario === undefined) section('Payload encryption (AES-256-GCM codec, in process)', payloadCodecTable(await runPayloadCodecScenario()));

  const sink = settings.tracing ? await startOtlpSink() : undefined;
  const tracingEnv = sink ? { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: sink.tracesUrl, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' } : { OTEL_TRACES_EXPORTER: 'none' };
  const stack = await startBenchStack({ ...process.env, ...tracingEnv }, scenario === 'noisy-neighbour-batch' ? AS_SHIPPED : {});
  running.add(stack);
  say(`\nStack: ${stack.description}`);
  say(sink ? 'Tracing: on (API and worker export every span over OTLP/HTTP protobuf to a discarding sink in the bench process)' : 'Tracing: off (BENCH_TRACING=on measures it on)');
  if (stack.processes.length === 0) say('(CPU and memory not measured: no /proc here, or a deployment the bench did not start)');
  try {
    if (summariser) {
      const all: BenchFigures = { summariser, ...(await runStackScenarios(stack, settings)) };
      Object.assign(json, all);
      section('Targets (issues 8 and 29)', targetTable(checkTargets(all)));
    } else {
      // Warm-up: JIT, connections, the server's caches and the worker's sticky cache, discarded.
      await runApiThroughputScenario(stack, WARMUP_TASKS, settings.concurrency);
    }
    const noisyNeighbour = scenario === 'noisy-neighbour-batch' ? await runBatchNeighbour(stack, settings) : await runNoisyNeighbour(stack, settings, running);
    if (noisyNeighbour) {
      json.noisyNeighbour = noisyNeighbour;
      section(scenario === 'noisy-neighbour-batch' ? 'Targets (batch as the flood)' : 'Targets (issue 20)', targetTable(checkNeighbourTargets(noisyNeighbour)));
    }
    for (const line of stack.loggedErrors()) say(`Log: ${line}`);
  } finally {
    await stack.stop();
    running.delete(stack);
    if (sink) say(`Tracing: the sink received ${sink.exports()} OTLP exports`);
    await sink?.close();
  }
}

/**
 * The real model's server and proxy, started before the other scenarios (they sit idle meanwhile).
 * In a whole run a machine that cannot run it (no Python 3.9+, no compiler for the first build)
 * skips the section; asked for alone, it fails.
 */
async function startRealModel(required: boolean): Promise<ModelBackend | undefined> {
  if (process.env.TEMPORAL_ADDRESS && process.env.ASSAY_BASE_URL && process.env.ASSAY_API_KEY) {
    const reason = 'it gives the API and the worker ASSAY_MODELS, so it needs its own, not a given deployment';
    if (required) throw new Error(`the real-model scenario cannot run: ${reason}`);
    say(`\n(Real model not run: ${reason}.)`);
    return undefined;
  }
  const startedAt = performance.now();
  try {
    const model = await startModelBackend();
    say(`\nModel server: SmolLM2-135M behind llama.cpp's server at ${model.server.baseUrl}, behind a counting proxy, up in ${((performance.now() - startedAt) / 1000).toFixed(0)} s`);
    return model;
  } catch (error) {
    if (required) throw error;
    say(`\n(Real model not run: the model server did not start: ${(error as Error).message.split('\n')[0]})`);
    return undefined;
  }
}

/** Issue 51's adversary on the real model. */
function runFairShareOnModel(settings: BenchSettings, model: ModelBackend, running: Set<Running>): Promise<RealModelAdversaryFigures> {
  return onRealModelStack(settings, model, running, async (stack) => {
    const figures = await runRealModelAdversary(stack, model, settings.realModel.concurrency, settings.fairShareModel, say);
    section(`Fair share on the real model: B's normal tasks alone and beside an adversary's, all high (concurrency ${settings.realModel.concurrency})`, realModelAdversaryTable(figures));
    return figures;
  });
}

/** The real model's three phases. */
function runRealModel(settings: BenchSettings, model: ModelBackend, running: Set<Running>): Promise<RealModelFigures> {
  return onRealModelStack(settings, model, running, async (stack) => {
    const figures = await runRealModelScenario(stack, model, settings.realModel, say);
    const { tasks, concurrency, backlog } = settings.realModel;
    section(`Real model: the model server driven directly vs the same ${tasks} texts through Assay, then a backlog of ${backlog} (concurrency ${concurrency})`, `${realModelTable(figures)}\n\n${realModelNotes(figures)}`);
    const failures = realModelFailures(figures);
    section('Targets (real model)', [targetTable(checkRealModelTargets(figures)), ...failures].join('\n\n'));
    for (const line of failures) process.stderr.write(`[bench] ${line}\n`);
    return figures;
  });
}

/** Runs `scenario` on a stack of its own whose API and worker declare the model behind the proxy, then stops the stack. */
async function onRealModelStack<T>(settings: BenchSettings, model: ModelBackend, running: Set<Running>, scenario: (stack: BenchStack) => Promise<T>): Promise<T> {
  const env = realModelEnv(model, settings.realModel);
  const stack = await startBenchStack({ ...process.env, OTEL_TRACES_EXPORTER: 'none' }, { childEnv: env });
  running.add(stack);
  say(`\nReal-model stack: ${stack.description}; ASSAY_MODELS=${env.ASSAY_MODELS}`);
  try {
    const figures = await scenario(stack);
    for (const line of stack.loggedErrors()) say(`Log (real model): ${line}`);
    return figures;
  } finally {
    await stack.stop();
    running.delete(stack);
  }
}

/**
 * The issue's like-for-like benchmark on a stack of its own, which runs the raw engine twice: as
 * shipped and with Assay's worker slots and payload codec. Runs on a given deployment too; its
 * worker's settings are then taken to be the ones this shell has. With --cluster, on the cluster.
 * With `createsOnly`, the same three paths' creates alone, every worker stopped (runCreateCost).
 */
async function runEngineGap(
  settings: BenchSettings,
  running: Set<Running>,
  { createsOnly = false, startStack = () => startBenchStack({ ...process.env, OTEL_TRACES_EXPORTER: 'none' }, { rawLikeForLike: true }) }: { createsOnly?: boolean; startStack?: () => Promise<BenchStack> } = {},
): Promise<EngineGapFigures> {
  const stack = await startStack();
  running.add(stack);
  say(`\nStack: ${stack.description}`);
  if (stack.rawLikeForLike) say(`Raw engine like for like: ${describeLikeForLike(stack.rawLikeForLike.workerOptions)}`);
  if (stack.processes.length === 0) say('(CPU not measured: no /proc here)');
  const tag = createsOnly ? 'create-cost' : 'engine-gap';
  try {
    const { tasks, concurrency, engineRuns: runs } = settings;
    const figures = await runEngineGapScenario(stack, { tasks, concurrency, runs, warmupTasks: WARMUP_TASKS, createsOnly }, (run) =>
      say(`[${tag}] ${describeEngineRun(run, createsOnly)}; load average now ${describeLoad()}`),
    );
    const shape = createsOnly
      ? `${runs} interleaved runs of ${tasks} creates per path, ${concurrency} in flight, every worker stopped while they run and the backlog drained after each`
      : `${runs} interleaved runs of ${tasks} tasks per path, ${concurrency} in flight, each loop waiting for its task to be final before the next create`;
    const title = createsOnly ? "Create cost: Assay's create vs the raw engine's start as shipped and like for like" : 'Engine gap: Assay vs the raw engine as shipped and like for like';
    section(`${title} (${shape})`, engineGapTable(figures));
    for (const line of stack.loggedErrors()) say(`Log: ${line}`);
    return figures;
  } finally {
    await stack.stop();
    running.delete(stack);
  }
}

/**
 * Issue 29's creates alone: the engine gap's three paths only creating, every worker stopped. With
 * no worker taking tasks the backlog's age grows with the run, and admission would refuse its last
 * creates: its checks still run, with a bound no run reaches.
 */
function runCreateCost(settings: BenchSettings, running: Set<Running>): Promise<EngineGapFigures> {
  const startStack = () => startBenchStack({ ...process.env, OTEL_TRACES_EXPORTER: 'none' }, { rawLikeForLike: true, childEnv: { ADMISSION_MAX_QUEUE_SECONDS: '3600' } });
  return runEngineGap(settings, running, { createsOnly: true, startStack });
}

/** Issue 27's review path at 100 and at BENCH_REVIEW_ASSESSMENTS open assessments, on a stack of its own as shipped but for the create limits. */
async function runReviewScale(settings: BenchSettings, running: Set<Running>): Promise<ReviewScaleFigures> {
  if (process.env.TEMPORAL_ADDRESS) throw new Error('the review-scale scenario runs on the embedded default only: it issues keys and a reviewer credential in its own key store');
  const stack = await startBenchStack({ ...process.env, OTEL_TRACES_EXPORTER: 'none' });
  running.add(stack);
  say(`\nStack: ${stack.description}`);
  try {
    const figures = await runReviewScaleScenario(stack, settings.review, say);
    const { assessments, organisations, samples } = settings.review;
    section(
      `Review path: ${REVIEW_SCALE_FIRST_SIZE} vs ${assessments} open assessments over ${organisations} organisations (${samples} requests per operation, one at a time)`,
      reviewScaleTable(figures),
    );
    for (const line of stack.loggedErrors()) say(`Log: ${line}`);
    return figures;
  } finally {
    await stack.stop();
    running.delete(stack);
  }
}

/** Issue 29's overload: capacity, then 1×, 2× and 4× of it offered, on a stack of its own as shipped but for the create limits. */
async function runOverload(settings: BenchSettings, running: Set<Running>): Promise<OverloadFigures> {
  const stack = await startBenchStack({ ...process.env, OTEL_TRACES_EXPORTER: 'none' });
  running.add(stack);
  say(`\nStack: ${stack.description}`);
  try {
    await runApiThroughputScenario(stack, WARMUP_TASKS, settings.concurrency);
    const figures = await runOverloadScenario(stack, settings.overload, say);
    section(`Overload: ${settings.overload.multiples.map((multiple) => `${multiple}×`).join(', ')} capacity offered for ${settings.overload.windowMs / 1000} s each`, overloadTable(figures));
    for (const line of stack.loggedErrors()) say(`Log: ${line}`);
    return figures;
  } finally {
    await stack.stop();
    running.delete(stack);
  }
}

/** What callers without a valid key cost: the API's memory and a keyed client's reads, idle and beside them. */
async function runHostileCallers(settings: BenchSettings, running: Set<Running>): Promise<HostileCallersFigures> {
  const stack = await startBenchStack({ ...process.env, OTEL_TRACES_EXPORTER: 'none' });
  running.add(stack);
  say(`\nStack: ${stack.description}`);
  try {
    const { id } = await benchClient(stack).summarize(BENCH_TASK_INPUT.text);
    const figures = await runHostileCallersScenario(stack, id, settings.hostileCallers);
    section(`Hostile callers: ${settings.hostileCallers.phaseMs / 1000} s per phase, a keyed client reading a finished task ${settings.hostileCallers.getsPerSecond} times a second`, hostileCallersTable(figures));
    for (const line of stack.loggedErrors()) say(`Log: ${line}`);
    return figures;
  } finally {
    await stack.stop();
    running.delete(stack);
  }
}

async function runOnCluster(settings: BenchSettings, running: Set<Running>, startedAt: Date): Promise<void> {
  const stack = await startClusterBenchStack(clusterLog);
  running.add(stack);
  say(`\nStack: ${stack.description}`);
  try {
    await runRawEngineScenario(stack, WARMUP_TASKS, settings.concurrency);
    await runApiThroughputScenario(stack, WARMUP_TASKS, settings.concurrency);
    const { raw, api } = await runThroughput(stack, settings);
    const latency = await runLatencies(stack, withHalfRawRate(CLUSTER_LATENCY_RATES, raw), settings);
    section('Targets (issue 29, on the cluster)', targetTable(checkClusterTargets(raw, api, latency)));
    for (const line of stack.loggedErrors()) say(`Log: ${line}`);
    say(`Whole run: ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s; load average now ${describeLoad()}`);
    if (settings.jsonFile) fs.writeFileSync(settings.jsonFile, `${JSON.stringify({ startedAt, settings, cluster: true, raw, api, latency }, omitIds, 2)}\n`);
  } finally {
    await stack.stop();
    running.delete(stack);
  }
}

/**
 * Issue 20: a neighbour's tasks alone, then beside a flood on three stacks: this one (fairness on,
 * create limits lifted), one as shipped (fairness and the per-organisation create limit) and one
 * whose server dispatches in arrival order with no organisation limit, as before issue 20. Only on
 * the bench's own stack: it issues keys, and a given server's fairness is not the bench's to turn off.
 */
async function runNoisyNeighbour(stack: BenchStack, settings: BenchSettings, running: Set<Running>): Promise<NoisyNeighbourFigures | undefined> {
  if (!canRunNoisyNeighbour(stack)) return undefined;
  const neighbour = settings.neighbour;
  await waitUntilQuiet(stack);
  const quietOrganisation = await runQuietNeighbour(stack, 'organisation', neighbour);
  await waitUntilQuiet(stack);
  const quietProduction = await runQuietNeighbour(stack, 'sandbox', neighbour);
  const floods: FloodRun[] = [];
  const floodBoth = async (on: BenchStack, dispatch: Dispatch) => {
    for (const kind of ['organisation', 'sandbox'] as const) {
      await waitUntilQuiet(on);
      const flood = await runFlood(on, kind, dispatch, neighbour);
      floods.push(flood);
      sayFlood(flood);
    }
  };
  await floodBoth(stack, { fairness: true, organisationLimit: false });
  for (const dispatch of [{ fairness: true, organisationLimit: true }, { fairness: false, organisationLimit: false }]) {
    const other = await startBenchStack(process.env, dispatch);
    running.add(other);
    try {
      say(`\nNext stack: ${other.description}`);
      await runApiThroughputScenario(other, WARMUP_TASKS, settings.concurrency);
      await floodBoth(other, dispatch);
      for (const line of other.loggedErrors()) say(`Log (${describeDispatch(dispatch)}): ${line}`);
    } finally {
      await other.stop();
      running.delete(other);
    }
  }
  const figures: NoisyNeighbourFigures = { settings: neighbour, quiet: { organisation: quietOrganisation, sandbox: quietProduction }, floods };
  const shape = `${neighbour.floodTasks} tasks at once vs ${neighbour.neighbourRatePerSecond} tasks/s until they drained; alone for ${neighbour.quietMs / 1000} s`;
  section(`Noisy neighbour: organisation A's flood vs organisation B, both sandbox (${shape})`, noisyNeighbourTable(figures, 'organisation'));
  section(`Noisy neighbour: a sandbox flood vs production (${shape})`, noisyNeighbourTable(figures, 'sandbox'));
  return figures;
}

/**
 * A's flood as one batch of BENCH_FLOOD_TASKS items beside B's single creates at the steady rate,
 * after B alone, on the stack as shipped. Not part of the whole run: 10,000 items take longer than its budget.
 */
async function runBatchNeighbour(stack: BenchStack, settings: BenchSettings): Promise<NoisyNeighbourFigures | undefined> {
  if (!canRunNoisyNeighbour(stack)) return undefined;
  const neighbour = settings.neighbour;
  await waitUntilQuiet(stack);
  const quiet = await runQuietNeighbour(stack, 'organisation', neighbour);
  say(`[noisy-neighbour] B alone: p50 ${quiet.endToEndMs.p50.toFixed(0)} ms, p99 ${quiet.endToEndMs.p99.toFixed(0)} ms; load average now ${describeLoad()}`);
  await waitUntilQuiet(stack);
  const flood = await runBatchFlood(stack, 'organisation', AS_SHIPPED, neighbour);
  sayFlood(flood);
  if (flood.neighbourTail) say(`[noisy-neighbour] ${describeTail(flood.neighbourTail)}`);
  await waitUntilQuiet(stack);
  const quietAfterBatch = await runQuietNeighbour(stack, 'organisation', neighbour);
  say(
    `[noisy-neighbour] B alone again after the batch: p50 ${quietAfterBatch.endToEndMs.p50.toFixed(0)} ms, p99 ${quietAfterBatch.endToEndMs.p99.toFixed(0)} ms (beside the batch: ${(flood.neighbour.endToEndMs.p99 / quietAfterBatch.endToEndMs.p99).toFixed(2)}× this p99); load average now ${describeLoad()}`,
  );
  const figures: NoisyNeighbourFigures = { settings: neighbour, quiet: { organisation: quiet }, floods: [flood], quietAfterBatch };
  const shape = `one batch of ${neighbour.floodTasks} items vs ${neighbour.neighbourRatePerSecond} tasks/s until it ended; alone for ${neighbour.quietMs / 1000} s`;
  section(`Noisy neighbour, batch as the flood: organisation A's batch vs organisation B, both sandbox, as shipped (${shape})`, noisyNeighbourTable(figures, 'organisation'));
  return figures;
}

/**
 * Issue 51's fair share, on the embedded default unless `startStack` starts another topology: the
 * closed-loop capacity (the throughput scenario, limits lifted, by server close time) on a stack
 * of its own; then on the stack as shipped, an organisation alone sending BENCH_TASKS creates as
 * fast as its client may, and alone sending a batch of BENCH_TASKS items; B alone at its steady
 * rate; and B beside the adversary.
 */
async function runFairShare(
  settings: BenchSettings,
  running: Set<Running>,
  startStack: (createLimits: boolean) => Promise<BenchStack> = (createLimits) => startBenchStack({ ...process.env, OTEL_TRACES_EXPORTER: 'none' }, createLimits ? AS_SHIPPED : {}),
): Promise<FairShareFigures> {
  const capacityStack = await startStack(false);
  running.add(capacityStack);
  say(`
Stack for capacity: ${capacityStack.description}`);
  let capacity: ApiThroughputFigure;
  try {
    await runApiThroughputScenario(capacityStack, WARMUP_TASKS, settings.concurrency);
    await waitUntilQuiet(capacityStack);
    capacity = await runApiThroughputScenario(capacityStack, settings.tasks, settings.concurrency);
    say(`[fair-share] capacity: ${capacity.serverCompletionsPerSecond.toFixed(1)} tasks/s by server close time (${settings.tasks} tasks, ${settings.concurrency} in flight); load average now ${describeLoad()}`);
  } finally {
    await capacityStack.stop();
    running.delete(capacityStack);
  }
  const stack = await startStack(true);
  running.add(stack);
  say(`Stack as shipped: ${stack.description}`);
  try {
    if (!canRunNoisyNeighbour(stack)) throw new Error('the fair-share scenario needs a stack whose keys the bench issues');
    await runApiThroughputScenario(stack, WARMUP_TASKS, settings.concurrency).catch(() => undefined);
    const alone = async (name: string, run: () => Promise<AloneDrain>) => {
      await waitUntilQuiet(stack);
      const figure = await run();
      say(`[fair-share] ${name}: ${figure.perSecond.toFixed(1)}/s (${(figure.perSecond / capacity.serverCompletionsPerSecond).toFixed(2)}× capacity), ${figure.refusals} refusals, ${figure.failures} failures; load average now ${describeLoad()}`);
      return figure;
    };
    const createsAlone = await alone('creates alone', () => runCreatesAlone(stack, settings.tasks));
    const batchAlone = await alone('batch alone', () => runBatchAlone(stack, settings.tasks));
    await waitUntilQuiet(stack);
    // As long as beside the adversary: a p99 of as many tasks, not the worst of 75.
    const quiet = await runQuietNeighbour(stack, 'organisation', { ...settings.neighbour, quietMs: settings.fairShare.adversaryMs });
    say(`[fair-share] B alone: p50 ${quiet.endToEndMs.p50.toFixed(0)} ms, p99 ${quiet.endToEndMs.p99.toFixed(0)} ms`);
    await waitUntilQuiet(stack);
    const adversary = await runAdversary(stack, settings.fairShare.adversaryBatchItems, settings.neighbour, settings.fairShare.adversaryMs);
    const figures: FairShareFigures = { capacityPerSecond: capacity.serverCompletionsPerSecond, createsAlone, batchAlone, quiet, adversary };
    section('Fair share: each organisation alone against capacity, and B beside an adversary', fairShareTable(figures));
    for (const line of stack.loggedErrors()) say(`Log: ${line}`);
    return figures;
  } finally {
    await stack.stop();
    running.delete(stack);
  }
}

/** Only on the bench's own stack: the scenario issues keys, and a given server's fairness is not the bench's to turn off. */
function canRunNoisyNeighbour(stack: BenchStack): boolean {
  if (stack.issueKey && !process.env.TEMPORAL_ADDRESS) return true;
  say('\n(Noisy neighbour not run: it needs the embedded default, whose keys and server the bench owns.)');
  return false;
}

/** The medians of each phase of the neighbour's slowest tasks, from their histories. */
function describeTail(tail: TailBreakdown): string {
  const phase = (name: string, figure: Distribution) => `${name} ${figure.p50.toFixed(0)} ms (max ${figure.max.toFixed(0)})`;
  return `B's ${tail.tasks} slowest tasks, median per phase: ${[
    phase('start → first workflow task', tail.toFirstSchedule),
    phase('waiting for a poller', tail.scheduleToStart),
    phase('workflow tasks running', tail.workflowTaskRun),
    phase('the rest', tail.rest),
  ].join(', ')}`;
}

/** A line per flood as it ends, so a run cut short by the deadline still shows what it measured. */
function sayFlood(flood: FloodRun): void {
  say(
    `[noisy-neighbour] ${flood.kind} ${flood.shape === 'batch' ? 'batch' : 'flood'}, ${describeDispatch(flood)}: neighbour p50 ${flood.neighbour.endToEndMs.p50.toFixed(0)} ms, p99 ${flood.neighbour.endToEndMs.p99.toFixed(0)} ms; flood drained in ${(flood.floodDrainMs / 1000).toFixed(0)} s; load average now ${describeLoad()}`,
  );
}

async function runStackScenarios(stack: BenchStack, settings: BenchSettings): Promise<Omit<BenchFigures, 'summariser'>> {
  // Warm-up: JIT, connections, the server's caches and the worker's sticky cache, discarded.
  await runRawEngineScenario(stack, WARMUP_TASKS, settings.concurrency);
  await runApiThroughputScenario(stack, WARMUP_TASKS, settings.concurrency);

  const { raw, api } = await runThroughput(stack, settings);

  // GET latency before the saturating arrival rates, whose backlog would still be draining.
  await waitUntilQuiet(stack);
  const gets = await runGetLatencyScenario(stack, api.succeededIds, GET_RATES, settings.getSeconds);
  section('GET latency (open-loop polls over up to 64 keep-alive connections)', getLatencyTable(gets));

  const latency = await runLatencies(stack, withHalfRawRate(LATENCY_RATES, raw), settings);
  return { raw, api, latency, gets };
}

/** The same N tasks through the raw engine and through Assay, with what each process spent on them. */
async function runThroughput(stack: BenchStack, settings: BenchSettings): Promise<{ raw: ThroughputFigure; api: ApiThroughputFigure }> {
  await waitUntilQuiet(stack);
  const raw = await runRawEngineScenario(stack, settings.tasks, settings.concurrency);
  await waitUntilQuiet(stack);
  const api = await runApiThroughputScenario(stack, settings.tasks, settings.concurrency);
  section('Throughput: raw engine vs Assay', throughputTable(raw, api));
  section('CPU and peak RSS', costTable(api, raw));
  return { raw, api };
}

/** The fixed arrival rates and issue 29's half the raw engine's completion rate in this run, in order. */
function withHalfRawRate(rates: number[], raw: ThroughputFigure): number[] {
  return [...new Set([...rates, halfRawRate(raw)])].sort((a, b) => a - b);
}

async function runLatencies(stack: BenchStack, rates: number[], settings: BenchSettings): Promise<LatencyFigure[]> {
  const latency: LatencyFigure[] = [];
  for (const rate of rates) {
    await waitUntilQuiet(stack);
    latency.push(await runLatencyScenario(stack, rate, settings.rateSeconds * 1000));
  }
  section('End-to-end latency (open-loop arrivals, SDK polling)', latencyTable(latency));
  return latency;
}

function omitIds(key: string, value: unknown): unknown {
  return key === 'succeededIds' ? undefined : value;
}

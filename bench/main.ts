import * as fs from 'node:fs';
import { runMain } from '../src/common/run-main';
import { startBenchStack, type BenchStack } from './bench-stack';
import { startOtlpSink } from './otlp-sink';
import { describeLoad, describeMachine } from './machine';
import { waitUntilQuiet } from './quiet';
import { costTable, getLatencyTable, latencyTable, summariserTable, targetTable, throughputTable } from './report';
import { runApiThroughputScenario } from './scenarios/api-throughput';
import { runGetLatencyScenario } from './scenarios/get-latency';
import { runLatencyScenario, type LatencyFigure } from './scenarios/latency-at-rate';
import { runRawEngineScenario } from './scenarios/raw-engine';
import { runSummariserScenario } from './scenarios/summariser';
import { checkTargets, type BenchFigures } from './targets';

// Issue 8: a whole run must stay under 10 minutes; the default settings take four to six on 2 busy cores.
const RUN_DEADLINE_MS = 10 * 60_000;
const LATENCY_RATES = [10, 50, 100];
const GET_RATES = [200, 500];
const WARMUP_TASKS = 200;

interface BenchSettings {
  tasks: number;
  concurrency: number;
  rateSeconds: number;
  getSeconds: number;
  /** BENCH_TRACING=on: the API and the worker trace every request and task, exporting over OTLP/HTTP to a sink in the bench. */
  tracing: boolean;
  jsonFile?: string;
}

function readSettings(env: NodeJS.ProcessEnv): BenchSettings {
  const positive = (name: string, fallback: number) => {
    const value = env[name] === undefined || env[name] === '' ? fallback : Number(env[name]);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got ${env[name]}`);
    return value;
  };
  return {
    tasks: positive('BENCH_TASKS', 1000),
    concurrency: positive('BENCH_CONCURRENCY', 32),
    rateSeconds: positive('BENCH_RATE_SECONDS', 15),
    getSeconds: positive('BENCH_GET_SECONDS', 10),
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

function section(title: string, body: string): void {
  say(`\n### ${title}\n\n${body}\n`);
}

/** `npm run bench`: every scenario of issue 8 against the embedded default (or a given deployment). */
runMain('bench', async () => {
  const settings = readSettings(process.env);
  const started: { stack?: BenchStack } = {};
  const deadline = setTimeout(() => {
    process.stderr.write(`[bench] still running after ${RUN_DEADLINE_MS / 60_000} minutes; giving up\n`);
    // The children must not outlive the bench.
    void Promise.resolve(started.stack?.stop()).finally(() => process.exit(1));
  }, RUN_DEADLINE_MS);
  deadline.unref();
  const startedAt = new Date();
  say(`# Assay bench, ${startedAt.toISOString()}\n\nMachine: ${describeMachine()}`);

  const summariser = runSummariserScenario();
  section('Summariser (extractive, in process)', summariserTable(summariser));

  const sink = settings.tracing ? await startOtlpSink() : undefined;
  const tracingEnv = sink ? { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: sink.tracesUrl, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' } : { OTEL_TRACES_EXPORTER: 'none' };
  const stack = await startBenchStack({ ...process.env, ...tracingEnv });
  started.stack = stack;
  say(`\nStack: ${stack.description}`);
  say(sink ? 'Tracing: on (API and worker export every span over OTLP/HTTP protobuf to a discarding sink in the bench process)' : 'Tracing: off (BENCH_TRACING=on measures it on)');
  if (stack.processes.length === 0) say('(CPU and memory not measured: no /proc here, or a deployment the bench did not start)');
  try {
    const figures = await runStackScenarios(stack, settings);
    const all: BenchFigures = { summariser, ...figures };
    section('Targets (issue 8)', targetTable(checkTargets(all)));
    for (const line of stack.loggedErrors()) say(`Log: ${line}`);
    say(`Whole run: ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s; load average now ${describeLoad()}`);
    if (settings.jsonFile) fs.writeFileSync(settings.jsonFile, `${JSON.stringify({ startedAt, settings, ...all }, omitIds, 2)}\n`);
  } finally {
    await stack.stop();
    if (sink) say(`Tracing: the sink received ${sink.exports()} OTLP exports`);
    await sink?.close();
  }
});

async function runStackScenarios(stack: BenchStack, settings: BenchSettings): Promise<Omit<BenchFigures, 'summariser'>> {
  // Warm-up: JIT, connections, the server's caches and the worker's sticky cache, discarded.
  await runRawEngineScenario(stack, WARMUP_TASKS, settings.concurrency);
  await runApiThroughputScenario(stack, WARMUP_TASKS, settings.concurrency);

  await waitUntilQuiet(stack);
  const raw = await runRawEngineScenario(stack, settings.tasks, settings.concurrency);
  await waitUntilQuiet(stack);
  const api = await runApiThroughputScenario(stack, settings.tasks, settings.concurrency);
  section('Throughput: raw engine vs Assay', throughputTable(raw, api));
  section('CPU and peak RSS', costTable(api, raw));

  // GET latency before the saturating arrival rates, whose backlog would still be draining.
  await waitUntilQuiet(stack);
  const gets = await runGetLatencyScenario(stack, api.succeededIds, GET_RATES, settings.getSeconds);
  section('GET latency (open-loop polls over up to 64 keep-alive connections)', getLatencyTable(gets));

  const latency: LatencyFigure[] = [];
  for (const rate of LATENCY_RATES) {
    await waitUntilQuiet(stack);
    latency.push(await runLatencyScenario(stack, rate, settings.rateSeconds * 1000));
  }
  section('End-to-end latency (open-loop arrivals, SDK polling)', latencyTable(latency));
  return { raw, api, latency, gets };
}

function omitIds(key: string, value: unknown): unknown {
  return key === 'succeededIds' ? undefined : value;
}

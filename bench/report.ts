import type { ProcessCost } from './usage-meter';
import type { FailureCauses } from './failure-causes';
import type { TaskWorkerOptions } from '../src/worker/task-worker-options';
import type { AloneDrain, FairShareFigures } from './scenarios/adversarial-neighbour';
import type { ApiThroughputFigure } from './scenarios/api-throughput';
import type { EngineGapFigures } from './scenarios/engine-gap';
import type { EngineMode, EngineRun } from './scenarios/engine-run';
import type { EngineRatio } from './scenarios/engine-gap-summary';
import type { GetLatencyFigure } from './scenarios/get-latency';
import type { LatencyFigure } from './scenarios/latency-at-rate';
import type { Dispatch, FloodKind, FloodRun, FloodShape, NoisyNeighbourFigures } from './scenarios/noisy-neighbour';
import type { OverloadFigures } from './scenarios/overload';
import type { PayloadCodecFigure } from './scenarios/payload-codec';
import type { AssayPhase, RealModelFigures, RealModelPhase } from './scenarios/real-model';
import type { NeighbourOnModel, RealModelAdversaryFigures } from './scenarios/real-model-adversary';
import type { ReviewScaleFigures, ReviewScaleRun } from './scenarios/review-scale';
import type { SummariserFigure } from './scenarios/summariser';
import type { ThroughputFigure } from './scenarios/throughput';
import type { HostileCallersFigures } from './scenarios/hostile-callers';
import type { Distribution, Spread } from './stats';
import type { TargetCheck } from './targets';

function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 1 : 0)} ms` : '–');
const perSecond = (value: number) => value.toFixed(0);
const ratio = (value: number) => `${value.toFixed(2)}×`;
const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MiB`;
const cores = (costs: ProcessCost[], elapsedMs: number) =>
  costs.map((cost) => `${cost.name} ${(cost.cpuSeconds / (elapsedMs / 1000)).toFixed(2)}`).join(', ') || '–';

export function summariserTable(figures: SummariserFigure[]): string {
  return table(
    ['input', 'runs', 'median', 'slowest', 'throughput'],
    figures.map((figure) => [figure.label, figure.runs, ms(figure.medianMs), ms(figure.maxMs), `${figure.mibPerSecond.toFixed(1)} MiB/s`]),
  );
}

export function payloadCodecTable(figures: PayloadCodecFigure[]): string {
  return table(
    ['payload', 'round trips', 'median (encode + decode)', 'CPU per round trip'],
    figures.map((figure) => [figure.label, figure.runs, `${Math.round(figure.medianMs * 1000)} µs`, `${Math.round(figure.cpuMsPerRoundTrip * 1000)} µs`]),
  );
}

/** "120 (create 429: 120)": a refusal the contract tells the client of is not a lost task, and the table says which it was. */
function failuresWithCauses(failures: number, failureCauses: FailureCauses): string {
  const causes = Object.entries(failureCauses).map(([cause, count]) => `${cause}: ${count}`);
  return causes.length === 0 ? String(failures) : `${failures} (${causes.join(', ')})`;
}

export function throughputTable(raw: ThroughputFigure, api: ApiThroughputFigure): string {
  return table(
    ['path', 'tasks', 'in flight', 'starts or creates/s', 'completions/s', 'ratio to raw (submits / completions)', 'failures', 'polls per task'],
    [
      ['raw engine: one workflow running the task\'s summary step, Temporal client start + result()', raw.tasks, raw.concurrency, perSecond(raw.submitsPerSecond), perSecond(raw.completionsPerSecond), '1.00× / 1.00×', raw.failures, '– (long poll)'],
      [
        'Assay: HTTP create + SDK polling (seen by the client)',
        api.tasks,
        api.concurrency,
        perSecond(api.submitsPerSecond),
        perSecond(api.completionsPerSecond),
        `${ratio(api.submitsPerSecond / raw.submitsPerSecond)} / ${ratio(api.completionsPerSecond / raw.completionsPerSecond)}`,
        failuresWithCauses(api.failures, api.failureCauses),
        api.pollsPerTask.toFixed(1),
      ],
      [
        'Assay: the same run, by server close time',
        api.tasks,
        api.concurrency,
        '',
        perSecond(api.serverCompletionsPerSecond),
        `– / ${ratio(api.serverCompletionsPerSecond / raw.completionsPerSecond)}`,
        '',
        '',
      ],
    ],
  );
}

const ENGINE_MODE_TITLES: Record<EngineMode, string> = {
  assay: "Assay as shipped (the SDK's summarize: create held with Prefer: wait, polls held if needed)",
  raw: "raw engine as shipped (the SDK's default slots, no codec; start + result())",
  'raw-like-for-like': "raw engine like for like (Assay's worker slots and payload codec, its workflow module preloaded; start + result())",
};
const CREATE_MODE_TITLES: Record<EngineMode, string> = {
  assay: "Assay's create (the SDK's createTask, not held)",
  raw: "raw engine's start as shipped (no codec)",
  'raw-like-for-like': "raw engine's start like for like (Assay's payload codec)",
};
const modeTitle = (mode: EngineMode, createsOnly: boolean) => (createsOnly ? CREATE_MODE_TITLES : ENGINE_MODE_TITLES)[mode];
const rateName = (createsOnly: boolean) => (createsOnly ? 'creates/s' : 'completions/s');
const cpuSeconds = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '–');
const finiteRatio = (value: number) => (Number.isFinite(value) ? ratio(value) : '–');
const minMedianMax = (value: Spread, format: (value: number) => string) => `${format(value.min)} / ${format(value.p50)} / ${format(value.max)}`;

/** What the raw engine like for like runs with, taken from Assay's worker's settings. */
export function describeLikeForLike(options: TaskWorkerOptions): string {
  const codec = options.dataConverter?.payloadCodecs?.length ? "Assay's payload codec (AES-256-GCM)" : 'no payload codec (none configured for Assay either)';
  return `${options.maxConcurrentWorkflowTaskExecutions} workflow task slots, ${options.maxConcurrentActivityTaskExecutions} activity slots, ${options.maxConcurrentLocalActivityExecutions} local activity slots, ${codec}, the workflow module preloaded as Assay's are`;
}

/** A line per run as it ends, so a run cut short by the deadline still shows what it measured. */
export function describeEngineRun(run: EngineRun, createsOnly: boolean): string {
  const polls = run.pollsPerTask === undefined || createsOnly ? '' : `, ${run.pollsPerTask.toFixed(1)} polls per task`;
  return `run ${run.round}, ${modeTitle(run.mode, createsOnly)}: ${run.completionsPerSecond.toFixed(1)} ${rateName(createsOnly)}, ${cpuSeconds(run.cpuSecondsPerThousand)} CPU-s per 1,000 tasks${describeMachineCost(run)}, ${failuresWithCauses(run.failures, run.failureCauses)} failures${polls}`;
}

/** ", machine 112.3 CPU-s per 1,000 (23.1 outside the measured processes: 4.0 interrupts; ksoftirqd/0 3.2, …)". */
function describeMachineCost({ machine, tasks }: EngineRun): string {
  if (!machine) return '';
  const perThousand = (seconds: number) => cpuSeconds((seconds / tasks) * 1000);
  const others = machine.busiestOthers.map((other) => `${other.command} ${perThousand(other.cpuSeconds)}`).join(', ');
  return `, machine ${perThousand(machine.busySeconds)} CPU-s per 1,000 (${perThousand(machine.unattributedSeconds)} outside the measured processes: ${perThousand(machine.interruptSeconds)} interrupts; ${others || 'no other process'})`;
}

/** The issue's engine gap: each mode's spread over its runs, each process's median, and Assay's medians over each raw engine's. */
export function engineGapTable(figures: EngineGapFigures): string {
  const { createsOnly } = figures.settings;
  const names = [...new Set(figures.modes.flatMap((mode) => Object.keys(mode.medianCpuSecondsPerThousand)))];
  const ratioRow = (label: string, assayOverRaw: EngineRatio) => [
    label,
    '',
    finiteRatio(assayOverRaw.completionsPerSecond),
    finiteRatio(assayOverRaw.cpuSecondsPerThousand),
    ...names.map(() => ''),
    finiteRatio(assayOverRaw.machineCpuSecondsPerThousand),
    '',
    '',
    '',
  ];
  return table(
    [
      'path',
      'runs',
      `${rateName(createsOnly)} (min / median / max)`,
      'CPU-s per 1,000 tasks, all processes (min / median / max)',
      ...names.map((name) => `${name}, CPU-s per 1,000 (median)`),
      'whole machine, CPU-s per 1,000 (median)',
      'of which outside the measured processes (median)',
      'polls per task (median)',
      'failures (all runs)',
    ],
    [
      ...figures.modes.map((mode) => [
        modeTitle(mode.mode, createsOnly),
        mode.runs,
        minMedianMax(mode.completionsPerSecond, (value) => value.toFixed(1)),
        minMedianMax(mode.cpuSecondsPerThousand, cpuSeconds),
        ...names.map((name) => cpuSeconds(mode.medianCpuSecondsPerThousand[name] ?? Number.NaN)),
        cpuSeconds(mode.medianMachineCpuSecondsPerThousand),
        cpuSeconds(mode.medianUnattributedCpuSecondsPerThousand),
        createsOnly ? '– (not awaited)' : mode.medianPollsPerTask === undefined ? '– (long poll)' : mode.medianPollsPerTask.toFixed(1),
        mode.failures,
      ]),
      ratioRow('Assay ÷ raw engine as shipped (medians)', figures.assayOverRaw.asShipped),
      ratioRow('Assay ÷ raw engine like for like (medians)', figures.assayOverRaw.likeForLike),
    ],
  );
}

export function latencyTable(figures: LatencyFigure[]): string {
  return table(
    ['arrivals', 'tasks', 'e2e p50', 'e2e p90', 'e2e p99', 'e2e max', 'create p50 / p99', 'final at 1st poll', 'polls per task', 'failures', 'arrival lag p99', 'CPU, cores'],
    figures.map((figure) => [
      `${figure.ratePerSecond}/s for ${figure.durationMs / 1000} s`,
      figure.endToEndMs.count,
      ms(figure.endToEndMs.p50),
      ms(figure.endToEndMs.p90),
      ms(figure.endToEndMs.p99),
      ms(figure.endToEndMs.max),
      `${ms(figure.createMs.p50)} / ${ms(figure.createMs.p99)}`,
      `${(figure.finalAtFirstPoll * 100).toFixed(1)} %`,
      figure.pollsPerTask.toFixed(1),
      figure.failures,
      ms(figure.arrivalLateP99Ms),
      cores(figure.costs, figure.elapsedMs),
    ]),
  );
}

export function getLatencyTable(figures: GetLatencyFigure[]): string {
  return table(
    ['polls', 'requests', 'p50', 'p90', 'p99', 'max', 'failures', 'mix (running / finished)', 'CPU per poll'],
    figures.map((figure) => [
      `${figure.pollsPerSecond}/s for ${figure.durationSeconds} s`,
      figure.latencyMs.count,
      ms(figure.latencyMs.p50),
      ms(figure.latencyMs.p90),
      ms(figure.latencyMs.p99),
      ms(figure.latencyMs.max),
      figure.failures,
      `${figure.runningTasks} / ${figure.finishedTasks}`,
      figure.costs.map((cost) => `${cost.name} ${((cost.cpuSeconds / figure.latencyMs.count) * 1000).toFixed(2)} ms`).join(', ') || '–',
    ]),
  );
}

const REVIEW_OPERATIONS: Array<[string, (run: ReviewScaleRun) => Distribution]> = [
  ['review GET, first open (reads the history once)', (run) => run.firstOpenMs],
  ['review GET, refresh (as the console every 3 s)', (run) => run.refreshMs],
  ['claim', (run) => run.claimMs],
  ['release', (run) => run.releaseMs],
  ['queue page of 20 (cursor from first to last)', (run) => run.queuePageMs],
];

/** Each review operation at the smaller and the larger queue side by side; the issue's goal is a p99 ratio within 2×. */
export function reviewScaleTable(figures: ReviewScaleFigures): string {
  const [small, large] = figures.runs;
  if (!small || !large) return '(not measured: the run stopped before both sizes)';
  const cell = (value: Distribution) => `${ms(value.p50)} / ${ms(value.p99)} (${value.count})`;
  return table(
    ['operation', `p50 / p99 at ${small.open} (requests)`, `p50 / p99 at ${large.open} (requests)`, `p99 ratio`],
    [
      ...REVIEW_OPERATIONS.map(([name, of]): (string | number)[] => [name, cell(of(small)), cell(of(large)), ratio(of(large).p99 / of(small).p99)]),
      ['answers other than 200', small.failures, large.failures, ''],
      ['filling, checks done', `${small.fillSeconds.toFixed(0)} s`, `${large.fillSeconds.toFixed(0)} s (from ${small.open})`, ''],
    ],
  );
}

/** Each multiple of capacity: what the server completed meanwhile against capacity, what was shed, and each process's CPU per accepted task. */
export function overloadTable(figures: OverloadFigures): string {
  const names = [...new Set(figures.phases.flatMap((phase) => phase.costs.map((cost) => cost.name)))];
  const cpuMsPerTask = (costs: ProcessCost[], tasks: number, name: string) => {
    const cost = costs.find((each) => each.name === name);
    return cost && tasks > 0 ? ((cost.cpuSeconds / tasks) * 1000).toFixed(1) : '–';
  };
  return table(
    ['offered', 'completions/s (of capacity)', 'accepted', '429 answers', 'creates given up', 'failed', 'requests per task', 'drain after the window', ...names.map((name) => `${name} CPU-ms per task`)],
    figures.phases.map((phase) => [
      `${phase.multiple}× (${perSecond(phase.offeredPerSecond)}/s)`,
      `${phase.completionsPerSecond.toFixed(1)} (${ratio(phase.completionsPerSecond / figures.capacityPerSecond)})`,
      phase.accepted,
      phase.refused,
      failuresWithCauses(phase.createsGivenUp, phase.createFailureCauses),
      failuresWithCauses(phase.failures, phase.waitFailureCauses),
      phase.requestsPerTask.toFixed(1),
      `${phase.drainSeconds.toFixed(0)} s`,
      ...names.map((name) => cpuMsPerTask(phase.costs, phase.accepted, name)),
    ]),
  ).concat(`\n\nCapacity: ${figures.capacityPerSecond.toFixed(1)} completions/s in a closed loop.`);
}

export function costTable(api: ApiThroughputFigure, raw: ThroughputFigure): string {
  if (api.costs.length + raw.costs.length === 0) return '(not measured: the bench did not start this deployment)';
  const perThousand = (cost: ProcessCost | undefined, tasks: number) =>
    cost ? `${((cost.cpuSeconds / tasks) * 1000).toFixed(1)} CPU-s, peak RSS ${mib(cost.peakRssBytes)}` : '–';
  const names = [...new Set([...api.costs, ...raw.costs].map((cost) => cost.name))];
  const total = (costs: ProcessCost[], tasks: number) => `${((costs.reduce((sum, cost) => sum + cost.cpuSeconds, 0) / tasks) * 1000).toFixed(1)} CPU-s`;
  return table(
    ['process', `per 1,000 tasks through Assay (${api.tasks} measured)`, `per 1,000 raw workflows (${raw.tasks} measured)`],
    [
      ...names.map((name) => [
        name,
        perThousand(api.costs.find((cost) => cost.name === name), api.tasks),
        perThousand(raw.costs.find((cost) => cost.name === name), raw.tasks),
      ]),
      ['all', total(api.costs, api.tasks), total(raw.costs, raw.tasks)],
    ],
  );
}

export function targetTable(checks: TargetCheck[]): string {
  return table(
    ['target', 'measured', 'met'],
    checks.map((check) => [check.target, check.measured, check.met ? 'yes' : '**no**']),
  );
}

const FLOOD_TITLES: Record<FloodKind, { quiet: string } & Record<FloodShape, string>> = {
  organisation: { quiet: 'B alone (sandbox)', creates: "beside A's flood", batch: "beside A's batch" },
  sandbox: { quiet: 'production alone', creates: 'beside a sandbox flood', batch: 'beside a sandbox batch' },
};

/** The neighbour's figures alone, beside a flood with fairness on, and beside the same flood with it off. */
/** How a stack dispatched: as shipped, or with the server's fairness or the API's organisation limit off. */
export function describeDispatch(dispatch: Dispatch): string {
  if (dispatch.fairness && dispatch.organisationLimit) return 'as shipped (fairness on, organisation limit)';
  return `fairness ${dispatch.fairness ? 'on' : 'off'}, ${dispatch.organisationLimit ? 'organisation limit' : 'no organisation limit'}`;
}

export function noisyNeighbourTable(figures: NoisyNeighbourFigures, kind: FloodKind): string {
  const quiet = figures.quiet[kind];
  if (!quiet) return '(not run)';
  const row = (label: string, neighbour: LatencyFigure, flood?: FloodRun) => [
    label,
    neighbour.endToEndMs.count,
    ms(neighbour.endToEndMs.p50),
    ms(neighbour.endToEndMs.p99),
    `${ratio(neighbour.endToEndMs.p50 / quiet.endToEndMs.p50)} / ${ratio(neighbour.endToEndMs.p99 / quiet.endToEndMs.p99)}`,
    `${(neighbour.finalAtFirstPoll * 100).toFixed(1)} %`,
    neighbour.failures,
    flood ? describeFloodDrain(flood) : '–',
    flood && flood.cpuMsPerTask > 0 ? `${flood.cpuMsPerTask.toFixed(1)} ms` : '–',
  ];
  const floods = figures.floods.filter((flood) => flood.kind === kind);
  return table(
    ['run', 'neighbour tasks', 'e2e p50', 'e2e p99', 'vs alone (p50 / p99)', 'final at 1st poll', 'failures', 'flood drained', 'CPU per task (stack)'],
    [
      row(FLOOD_TITLES[kind].quiet, quiet),
      ...floods.map((flood) => row(`${FLOOD_TITLES[kind][flood.shape]}, ${describeDispatch(flood)}`, flood.neighbour, flood)),
    ],
  );
}

/** Issue 51: each organisation's work alone against capacity, and B beside the adversary against B alone. */
export function fairShareTable({ capacityPerSecond, createsAlone, batchAlone, quiet, adversary }: FairShareFigures): string {
  const alone = (label: string, figure: AloneDrain) => [label, `${figure.work} in ${seconds(figure.drainMs / 1000)}`, perSecond(figure.perSecond), ratio(figure.perSecond / capacityPerSecond), figure.refusals, figure.failures];
  const drains = table(
    ['alone on the stack as shipped', 'work', 'per second', 'vs capacity', 'creates refused (429)', 'failures'],
    [['closed-loop capacity, limits lifted', '–', perSecond(capacityPerSecond), '1.00×', '–', '–'], alone('creates, as fast as the client may', createsAlone), alone('one batch', batchAlone)],
  );
  const neighbour = (label: string, figure: LatencyFigure) => [
    label,
    figure.endToEndMs.count,
    ms(figure.endToEndMs.p50),
    ms(figure.endToEndMs.p99),
    ratio(figure.endToEndMs.p99 / quiet.endToEndMs.p99),
    `${(figure.finalAtFirstPoll * 100).toFixed(1)} %`,
    figure.failures,
  ];
  const beside = table(['B (normal)', 'tasks', 'e2e p50', 'e2e p99', 'p99 vs alone', 'final at 1st poll', 'failures'], [neighbour('alone', quiet), neighbour('beside the adversary', adversary.neighbour)]);
  const adversaryLine =
    `The adversary: one batch of ${adversary.batchItems} items and ${adversary.floodTasks} creates, all \`high\`, ${adversary.adversaryRefusals} creates refused (429); ` +
    `${adversary.adversaryCompleted} of its tasks succeeded while B ran, ${perSecond(adversary.adversaryPerSecond)}/s ` +
    `(${ratio(adversary.adversaryPerSecond / createsAlone.perSecond)} its creates alone).`;
  return `${drains}\n\n${beside}\n\n${adversaryLine}`;
}

/** How long the flood took to drain and what it lost: creates from first to last closed, a batch from created to ended. */
function describeFloodDrain(flood: FloodRun): string {
  const drain = `${(flood.floodDrainMs / 1000).toFixed(1)} s (${perSecond(flood.floodTasks / (flood.floodDrainMs / 1000))}/s)`;
  if (flood.shape === 'batch') {
    const refused = flood.batchReadsRefused ? `; ${flood.batchReadsRefused} of the bench's reads of it answered 503/429` : '';
    return `${flood.floodTasks} items in one batch, created → ended in ${drain}, ${flood.floodFailures} not succeeded; 202 after ${ms(flood.batchAcceptMs ?? Number.NaN)}${refused}`;
  }
  return `${flood.floodTasks} in ${drain}, ${flood.floodFailures} failed, ${flood.floodRefusals} creates refused (429)`;
}

const seconds = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} s` : '–');
const spreadOf = (value: Spread) => `${seconds(value.p50)} / ${seconds(value.max)}`;
const percent = (value: number) => (Number.isFinite(value) ? `${(value * 100).toFixed(0)} %` : '–');

/** Issue "AI tasks on real models", point 5: the model server driven directly, the same texts through Assay, and a backlog draining. */
export function realModelTable(figures: RealModelFigures): string {
  const { direct, assay, directBacklog, backlog, settings } = figures;
  const limit = settings.concurrency;
  const row = (label: string, phase: RealModelPhase, baseline: RealModelPhase, perTask: string, wait: string) => [
    label,
    phase.tasks,
    `${phase.providerCalls}${phase.providerErrors > 0 ? ` (${phase.providerErrors} not 200)` : ''}`,
    `${phase.maxInFlight} / ${limit}${phase.maxInFlight > limit ? ' **above the limit**' : ''}`,
    seconds(phase.wallMs / 1000),
    phase.tasksPerMinute.toFixed(1),
    ratio(phase.tasksPerMinute / baseline.tasksPerMinute),
    spreadOf(phase.callSeconds),
    perTask,
    wait,
    percent(phase.providerBusy),
    phase.failures,
  ];
  const throughAssay = (phase: AssayPhase) => spreadOf(phase.taskSeconds);
  return table(
    [
      'path',
      'tasks',
      'calls at the provider',
      'max in flight at the provider / limit',
      'wall',
      'tasks per minute',
      'vs direct (same texts)',
      'call p50 / max (at the provider)',
      'task p50 / max (create → final)',
      'longest wait for the provider',
      'provider busy',
      'failed',
    ],
    [
      row(`direct: a client sends ${direct.tasks} texts to /v1/chat/completions, ${limit} at once`, direct, direct, `${spreadOf(direct.clientCallSeconds)} (client)`, '–'),
      row('through Assay: the same texts in the same order, as tasks created at once', assay, direct, throughAssay(assay), seconds(assay.longestWaitSeconds)),
      row(`direct: the backlog's ${directBacklog.tasks} texts, ${limit} at once`, directBacklog, directBacklog, `${spreadOf(directBacklog.clientCallSeconds)} (client)`, '–'),
      row(`backlog through Assay: those texts created at once (${(backlog.tasks / limit).toFixed(0)}× the limit), drained`, backlog, directBacklog, throughAssay(backlog), seconds(backlog.longestWaitSeconds)),
    ],
  );
}

/** What the phases through Assay cost the stack, and the rate by the server's close times. */
export function realModelNotes(figures: RealModelFigures): string {
  const { assay, backlog, model, settings } = figures;
  const cpu = (phase: AssayPhase) =>
    phase.costs.length === 0 ? 'not measured' : `${phase.costs.map((cost) => `${cost.name} ${((cost.cpuSeconds / phase.tasks) * 1000).toFixed(0)}`).join(', ')} CPU-ms per task`;
  return [
    `Model: ${model.name} (SmolLM2-135M-Instruct, llama.cpp's server, 1 thread, one request at a time), context ${model.contextTokens} tokens, max_tokens ${model.maxOutputTokens}, ASSAY_MODELS concurrency ${settings.concurrency}; texts of ${model.textChars.min}–${model.textChars.max} characters from distinct news articles, one call each.`,
    `By the server's close times: ${assay.serverTasksPerMinute.toFixed(1)} tasks per minute through Assay, ${backlog.serverTasksPerMinute.toFixed(1)} over the backlog; the last backlog task was final ${seconds(backlog.lastTaskSeconds)} after the first create.`,
    `The model server idle through Assay: ${ms(assay.firstCallSeconds * 1000)} from the first create to the first call, ${ms(assay.afterLastCallSeconds * 1000)} from the last call's answer to the last task seen final (backlog: ${ms(backlog.firstCallSeconds * 1000)}, ${ms(backlog.afterLastCallSeconds * 1000)}).`,
    `Stack CPU through Assay: ${cpu(assay)}; backlog: ${cpu(backlog)}.`,
  ].join('\n');
}

export function hostileCallersTable(figures: HostileCallersFigures): string {
  const [idle] = figures.phases;
  return table(
    ['phase', 'API peak RSS (over idle)', 'API CPU', 'keyed GET p50 / p99 (p99 over idle)', 'keyed GETs failed', 'hostile callers answered'],
    figures.phases.map((phase) => [
      phase.name,
      `${mib(phase.apiPeakRssBytes)} (+${mib(Math.max(0, phase.apiPeakRssBytes - idle.apiPeakRssBytes))})`,
      `${((phase.apiCpuSeconds / figures.settings.phaseMs) * 100_000).toFixed(0)} %`,
      `${ms(phase.keyedGetMs.p50)} / ${ms(phase.keyedGetMs.p99)} (${ratio(phase.keyedGetMs.p99 / idle.keyedGetMs.p99)})`,
      phase.keyedGetFailures,
      Object.entries(phase.hostileAnswers).map(([status, count]) => `${count}× ${status === '0' ? 'closed' : status}`).join(', ') || '–',
    ]),
  );
}

/** Issue 51 on the real model: how long B's tasks waited for their call, alone and beside the adversary. */
export function realModelAdversaryTable({ settings, concurrency, alone, beside, callSeconds, maxInFlight, adversaryCreated, adversaryCalls }: RealModelAdversaryFigures): string {
  const row = (label: string, figure: NeighbourOnModel) => [label, figure.tasks, spreadOf(figure.waitSeconds), spreadOf(figure.taskSeconds), figure.failures];
  const neighbour = table(['B (normal), a task every ' + seconds(settings.neighbourIntervalMs / 1000), 'tasks', 'create to its call at the model server, p50 / max', 'create to final, p50 / max', 'failures'], [
    row('alone', alone),
    row('beside the adversary', beside),
  ]);
  return (
    `${neighbour}\n\n` +
    `The adversary: a batch of ${settings.adversaryBatchItems} and ${adversaryCreated} creates on the model, all \`high\`; while B ran the model server answered ${adversaryCalls} of its calls, ` +
    `at most ${maxInFlight} at once (concurrency ${concurrency}), each ${spreadOf(callSeconds)} (p50 / max). ` +
    `B's longest wait beside it is ${ratio(beside.waitSeconds.max / callSeconds.max)} the longest call (goal ≤ 1×: B waits for at most the calls already at the model server, one per slot).`
  );
}

import { AssayClient, type FetchFunction } from '../../src/sdk';
import { ASSAY_ROLES, processesOf, type BenchStack } from '../bench-stack';
import { countFailure, failureCause, totalFailures, type FailureCauses } from '../failure-causes';
import { runOpenLoop } from '../open-loop';
import { waitUntilQuiet } from '../quiet';
import { BENCH_TASK_INPUT } from '../task-input';
import { UsageMeter, type ProcessCost } from '../usage-meter';
import { runApiThroughputScenario } from './api-throughput';

// The first seconds of a phase fill the pipeline; completions are counted after them.
const RAMP_MS = 10_000;
// Past capacity a task waits longer than the SDK's default ceiling of a minute; a customer with a
// backlog sets a longer one, and the bench measures the server, not the ceiling.
const POLL_CEILING = { timeoutMs: 30 * 60_000, maxPolls: 100_000 };

export interface OverloadSettings {
  /** Multiples of the measured capacity offered in turn, e.g. 1, 2 and 4. */
  multiples: number[];
  /** How long each multiple is offered. */
  windowMs: number;
  /** Tasks of the closed loop that measures capacity first. */
  capacityTasks: number;
  concurrency: number;
}

/** One multiple of capacity offered for the window, every task then awaited as a customer would. */
export interface OverloadPhase {
  multiple: number;
  offeredPerSecond: number;
  /** Tasks the server closed per second, from RAMP_MS into the window to its end. */
  completionsPerSecond: number;
  /** Creates answered 202 (after the SDK's retries). */
  accepted: number;
  /** 429 answers, to creates and to anything else. */
  refused: number;
  /** Creates the SDK gave up on (its retries spent, or a Retry-After longer than it waits). */
  createsGivenUp: number;
  /** Why: `create 429`, `create 503`, … */
  createFailureCauses: FailureCauses;
  /** Accepted tasks the SDK did not see succeed. */
  failures: number;
  /** Why: `wait: task failed <code>` for a task that failed, `wait 503` for a client that gave up polling, … */
  waitFailureCauses: FailureCauses;
  /** Every HTTP request the clients sent, per accepted task. */
  requestsPerTask: number;
  /** From the window's end until the last accepted task was final. */
  drainSeconds: number;
  costs: ProcessCost[];
}

export interface OverloadFigures {
  /** Completions per second of a closed loop that keeps `concurrency` tasks in flight. */
  capacityPerSecond: number;
  phases: OverloadPhase[];
}

/**
 * Issue 29, point 4: capacity measured first (a closed loop, which never queues more than it has
 * in flight), then 1×, 2× and 4× of it offered open loop for a window each, by SDK clients as
 * shipped (creates retried on 429 after Retry-After, tasks awaited with `Prefer: wait` and paced by
 * Retry-After) but for a longer time ceiling. Past
 * capacity, completions should stay at capacity, not fall below it.
 */
export async function runOverloadScenario(stack: BenchStack, settings: OverloadSettings, say: (line: string) => void): Promise<OverloadFigures> {
  const capacity = await runApiThroughputScenario(stack, settings.capacityTasks, settings.concurrency);
  const capacityPerSecond = capacity.serverCompletionsPerSecond;
  say(`[overload] capacity: ${capacityPerSecond.toFixed(1)} completions/s (${settings.capacityTasks} tasks, ${settings.concurrency} in flight)`);
  const phases: OverloadPhase[] = [];
  for (const multiple of settings.multiples) {
    await waitUntilQuiet(stack, 300_000);
    const phase = await offer(stack, multiple, capacityPerSecond * multiple, settings.windowMs);
    say(
      `[overload] ${multiple}×: ${phase.completionsPerSecond.toFixed(1)} completions/s, ${phase.accepted} accepted, ${phase.refused} answered 429, ` +
        `${phase.createsGivenUp} creates given up, ${phase.requestsPerTask.toFixed(1)} requests per task, drained in ${phase.drainSeconds.toFixed(0)} s`,
    );
    phases.push(phase);
  }
  return { capacityPerSecond, phases };
}

async function offer(stack: BenchStack, multiple: number, offeredPerSecond: number, windowMs: number): Promise<OverloadPhase> {
  let requests = 0;
  let refused = 0;
  const counting: FetchFunction = async (input, init) => {
    requests += 1;
    const response = await fetch(input, init);
    if (response.status === 429) refused += 1;
    return response;
  };
  const clients = stack.baseUrls.map((baseUrl) => new AssayClient({ baseUrl, apiKey: stack.apiKey, fetch: counting, poll: POLL_CEILING }));
  const closeTimes: number[] = [];
  const tasks: Promise<void>[] = [];
  let accepted = 0;
  const createFailureCauses: FailureCauses = {};
  const waitFailureCauses: FailureCauses = {};
  let lastFinalAt = 0;
  const meter = new UsageMeter(processesOf(stack, ASSAY_ROLES));
  meter.start();
  const windowStart = Date.now();
  await runOpenLoop(offeredPerSecond, windowMs, (index) => {
    const client = clients[index % clients.length];
    tasks.push(
      (async () => {
        const created = await client.createTask({ task_type: 'summarize', input: BENCH_TASK_INPUT }).catch((error: unknown) => {
          countFailure(createFailureCauses, failureCause('create', error));
          return undefined;
        });
        if (!created) return;
        accepted += 1;
        const final = await client.waitForTask(created).catch((error: unknown) => {
          countFailure(waitFailureCauses, failureCause('wait', error));
          return undefined;
        });
        lastFinalAt = Date.now();
        if (final) closeTimes.push(Date.parse(final.updated_at));
      })(),
    );
  });
  const windowEnd = windowStart + windowMs;
  await Promise.all(tasks);
  const costs = meter.stop();
  const counted = closeTimes.filter((closedAt) => closedAt >= windowStart + RAMP_MS && closedAt <= windowEnd).length;
  return {
    multiple,
    offeredPerSecond,
    completionsPerSecond: counted / ((windowMs - RAMP_MS) / 1000),
    accepted,
    refused,
    createsGivenUp: totalFailures(createFailureCauses),
    createFailureCauses,
    failures: totalFailures(waitFailureCauses),
    waitFailureCauses,
    requestsPerTask: requests / Math.max(1, accepted),
    drainSeconds: Math.max(0, lastFinalAt - windowEnd) / 1000,
    costs,
  };
}

import { Client, Connection } from '@temporalio/client';
import { ORGANIZATION_SEARCH_ATTRIBUTE } from '../../src/contract';
import type { KeyEnvironment } from '../../src/common/keys/api-key';
import { AssayApiError, DEFAULT_BATCH_POLL_OPTIONS, type AssayClient, type Batch, type Task, type TaskPriority } from '../../src/sdk';
import type { BenchStack } from '../bench-stack';
import { benchClient } from '../bench-client';
import { sleep } from '../clock';
import { runClosedLoop } from '../closed-loop';
import { tailBreakdown, type TailBreakdown } from './tail-breakdown';
import { BENCH_TASK_INPUT, benchBatchItems } from '../task-input';
import { runLatencyScenario, type LatencyFigure } from './latency-at-rate';

/** Issue 20's shape: the flood arrives at once, the neighbour at a steady rate throughout. */
export interface NeighbourSettings {
  floodTasks: number;
  neighbourRatePerSecond: number;
  /** How long the neighbour's quiet run lasts; under a flood it lasts until the flood has drained. */
  quietMs: number;
}

/** Who floods the queue: another organisation in the same environment, or the sandbox while the neighbour is in production. */
export type FloodKind = 'organisation' | 'sandbox';

/** What the stack a flood ran on had: fairness in the server, the per-organisation create limit in the API. */
export interface Dispatch {
  fairness: boolean;
  organisationLimit: boolean;
}

/** How the flood arrives: as single creates from 32 connections, or as one batch the service admits itself. */
export type FloodShape = 'creates' | 'batch';

export interface FloodRun extends Dispatch {
  kind: FloodKind;
  shape: FloodShape;
  neighbour: LatencyFigure;
  floodTasks: number;
  /** Creates that failed (creates); items whose task had not succeeded when the batch ended (batch). */
  floodFailures: number;
  /** Creates of the flood answered 429 (and retried after Retry-After, as a patient client does); 0 for a batch. */
  floodRefusals: number;
  /** Creates: first create of the flood until the last of its tasks closed. Batch: its created_at until its ended_at, by the server's clock. */
  floodDrainMs: number;
  /** Batch only: the POST sent until its 202 (the API parsing and staging the items). */
  batchAcceptMs?: number;
  /** Batch only: the bench's reads of the batch answered 503 or 429, and read again. */
  batchReadsRefused?: number;
  /** CPU of every measured process of the stack per task (flood and neighbour) over the run; 0 when not measured. */
  cpuMsPerTask: number;
  /** Batch only: where the neighbour's slowest tasks (at or above its p99) spent their time. */
  neighbourTail?: TailBreakdown;
}

export interface NoisyNeighbourFigures {
  settings: NeighbourSettings;
  /** The neighbour alone: in the sandbox (beside an organisation's flood) and in production (beside a sandbox flood), each where its floods ran. */
  quiet: Partial<Record<FloodKind, LatencyFigure>>;
  floods: FloodRun[];
  /**
   * Batch as the flood: the neighbour alone once more after the batch has ended, on a server that
   * now holds the batch's closed tasks, to tell the batch's company from the server's growth.
   */
  quietAfterBatch?: LatencyFigure;
}

/** The connections a flood of single creates comes from, the same in every scenario that floods so that their figures compare. */
export const FLOOD_CREATORS = 32;
const DRAIN_CHECK_MS = 250;
const MAX_FLOOD_MS = 300_000;
// A batch drains at the organisation's create rate, or slower when the stack cannot keep up: 10,000 items at 600/min take 17 minutes.
const MAX_BATCH_FLOOD_MS = 30 * 60_000;
// How often the bench reads the batch (a GET counts its tasks in visibility), and how often it says how far it got.
const BATCH_PROGRESS_MS = 30_000;
// The POST of a 10,000-item batch carries about 10 MiB of JSON, which the API parses and stages before answering.
export const BATCH_CREATE_TIMEOUT_MS = 120_000;
const NEIGHBOUR_ENVIRONMENT: Record<FloodKind, KeyEnvironment> = { organisation: 'test', sandbox: 'live' };

let runs = 0;

/** A fresh organisation per run, so no fairness counter or backlog of an earlier run is in play. */
export function organisation(role: string): string {
  runs += 1;
  return `${role}-${runs}`;
}

/** The neighbour alone at its rate, for the figures a flood is compared against. */
export async function runQuietNeighbour(stack: BenchStack, kind: FloodKind, settings: NeighbourSettings): Promise<LatencyFigure> {
  const apiKey = await requireIssueKey(stack)(organisation('quiet'), NEIGHBOUR_ENVIRONMENT[kind]);
  return runLatencyScenario(stack, settings.neighbourRatePerSecond, settings.quietMs, { apiKey });
}

/**
 * The flood's tasks all created at once (as fast as the API takes them from 32 connections; a
 * create refused by a limit is retried after its Retry-After) while the neighbour creates its own
 * at a steady rate, until every flood task has closed.
 */
export async function runFlood(stack: BenchStack, kind: FloodKind, dispatch: Dispatch, settings: NeighbourSettings): Promise<FloodRun> {
  const issueKey = requireIssueKey(stack);
  const floodOrganisation = organisation('flood');
  const floodClient = benchClient(stack, await issueKey(floodOrganisation, 'test'));
  const neighbourKey = await issueKey(organisation('neighbour'), NEIGHBOUR_ENVIRONMENT[kind]);
  const connection = await Connection.connect(stack.connection);
  try {
    const workflows = new Client({ connection, namespace: stack.namespace }).workflow;
    let floodFailures = 0;
    let floodRefusals = 0;
    const floodStartedAt = performance.now();
    const flood = (async () => {
      await runClosedLoop(settings.floodTasks, FLOOD_CREATORS, async () => {
        await createPatiently(floodClient, () => (floodRefusals += 1)).catch(() => {
          floodFailures += 1;
        });
      });
      const running = `${ORGANIZATION_SEARCH_ATTRIBUTE.name} = '${floodOrganisation}' AND ExecutionStatus = 'Running'`;
      while ((await workflows.count(running)).count > 0) await sleep(DRAIN_CHECK_MS);
      return performance.now() - floodStartedAt;
    })();
    const beside = await neighbourBeside(stack, neighbourKey, settings, MAX_FLOOD_MS, flood);
    return { kind, shape: 'creates', ...dispatch, neighbour: beside.neighbour, floodTasks: settings.floodTasks, floodFailures, floodRefusals, floodDrainMs: beside.flood, cpuMsPerTask: beside.cpuMsPerTask };
  } finally {
    await connection.close();
  }
}

/**
 * The flood as one batch of `floodTasks` items, which the service admits as low-priority tasks a
 * page at a time, while the neighbour creates single tasks at its steady rate until the batch has
 * ended (the bench reads it as the SDK does by default, every 2–5 s).
 */
export async function runBatchFlood(stack: BenchStack, kind: FloodKind, dispatch: Dispatch, settings: NeighbourSettings): Promise<FloodRun> {
  const issueKey = requireIssueKey(stack);
  const floodClient = benchClient(stack, await issueKey(organisation('batch'), 'test'));
  const neighbourOrganisation = organisation('neighbour');
  const neighbourKey = await issueKey(neighbourOrganisation, NEIGHBOUR_ENVIRONMENT[kind]);
  const items = benchBatchItems(settings.floodTasks);
  const sentAt = performance.now();
  let readsRefused = 0;
  const flood = (async () => {
    const created = await floodClient.createBatch({ task_type: 'summarize', items }, { requestTimeoutMs: BATCH_CREATE_TIMEOUT_MS });
    const acceptMs = performance.now() - sentAt;
    const ended = await waitForBatchPatiently(floodClient, created, sentAt + MAX_BATCH_FLOOD_MS, (error) => {
      readsRefused += 1;
      process.stderr.write(`[noisy-neighbour] a read of the batch answered ${error.status} ${error.code}; reading again after ${error.retryAfterMs ?? 1000} ms\n`);
    });
    return { acceptMs, ended };
  })();
  const beside = await neighbourBeside(stack, neighbourKey, settings, MAX_BATCH_FLOOD_MS, flood);
  const { acceptMs, ended } = beside.flood;
  return {
    kind,
    shape: 'batch',
    ...dispatch,
    neighbour: beside.neighbour,
    floodTasks: settings.floodTasks,
    floodFailures: ended.counts.total - ended.counts.succeeded,
    floodRefusals: 0,
    floodDrainMs: Date.parse(ended.ended_at ?? ended.updated_at) - Date.parse(ended.created_at),
    batchAcceptMs: acceptMs,
    batchReadsRefused: readsRefused,
    cpuMsPerTask: beside.cpuMsPerTask,
    neighbourTail: await tailBreakdown(stack, neighbourOrganisation, beside.neighbour.slowestIds),
  };
}

/**
 * Reads the batch on the SDK's default schedule until it has ended, saying how far it got every 30 s; a read
 * answered 503 or 429 (a stack too busy to answer, for a moment) is read again after its Retry-After.
 */
export async function waitForBatchPatiently(client: AssayClient, batch: Batch, deadline: number, refused: (error: AssayApiError) => void): Promise<Batch> {
  const startedAt = performance.now();
  let saidAt = startedAt;
  for (;;) {
    try {
      return await client.waitForBatch(batch.id, {
        poll: { timeoutMs: Math.max(deadline - performance.now(), DEFAULT_BATCH_POLL_OPTIONS.maxIntervalMs * 2) },
        onPoll: (seen) => {
          if (performance.now() - saidAt < BATCH_PROGRESS_MS) return;
          saidAt = performance.now();
          process.stderr.write(`[noisy-neighbour] batch ${describeCounts(seen)} after ${((performance.now() - startedAt) / 1000).toFixed(0)} s\n`);
        },
      });
    } catch (error) {
      if (!(error instanceof AssayApiError && (error.status === 503 || error.status === 429)) || performance.now() > deadline) throw error;
      refused(error);
      await sleep(error.retryAfterMs ?? 1000);
    }
  }
}

function describeCounts({ counts }: Batch): string {
  return `${counts.admitted} of ${counts.total} admitted, ${counts.succeeded} succeeded, ${counts.failed} failed`;
}

/**
 * The neighbour's tasks at its rate, from now until the flood has drained (at most maxMs), and the
 * CPU every measured process of the stack spent meanwhile per task, the flood's and the neighbour's.
 */
async function neighbourBeside<T>(
  stack: BenchStack,
  apiKey: string,
  settings: NeighbourSettings,
  maxMs: number,
  flood: Promise<T>,
): Promise<{ neighbour: LatencyFigure; flood: T; cpuMsPerTask: number }> {
  let drained = false;
  const settled = flood.finally(() => {
    drained = true;
  });
  // A flood that fails stops the neighbour early; its error is thrown below, once the neighbour's tasks are done.
  settled.catch(() => undefined);
  const neighbour = await runLatencyScenario(stack, settings.neighbourRatePerSecond, maxMs, { apiKey, stopWhen: () => drained });
  const drainedFlood = await settled;
  const cpuSeconds = neighbour.costs.reduce((sum, cost) => sum + cost.cpuSeconds, 0);
  const tasks = settings.floodTasks + neighbour.endToEndMs.count;
  return { neighbour, flood: drainedFlood, cpuMsPerTask: (cpuSeconds / tasks) * 1000 };
}

/** Creates one task, waiting out each 429's Retry-After as a patient client does. */
export function createPatiently(client: AssayClient, refused: () => void, priority?: TaskPriority): Promise<Task> {
  return patiently(() => client.createTask({ task_type: 'summarize', input: BENCH_TASK_INPUT, ...(priority === undefined ? {} : { priority }) }), refused);
}

/** Sends a create until it is not answered 429, waiting out each Retry-After. */
export async function patiently<T>(create: () => Promise<T>, refused: () => void): Promise<T> {
  for (;;) {
    try {
      return await create();
    } catch (error) {
      if (!(error instanceof AssayApiError && error.status === 429)) throw error;
      refused();
      await sleep(error.retryAfterMs ?? 1000);
    }
  }
}

export function requireIssueKey(stack: BenchStack): NonNullable<BenchStack['issueKey']> {
  if (!stack.issueKey) throw new Error('the noisy-neighbour scenario needs the bench’s own stack (it issues keys for its organisations)');
  return stack.issueKey;
}

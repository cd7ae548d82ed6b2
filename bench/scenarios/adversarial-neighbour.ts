import { Client, Connection } from '@temporalio/client';
import { AI_TASK_WORKFLOW_TYPE, ORGANIZATION_SEARCH_ATTRIBUTE } from '../../src/contract';
import { equals, quote, visibilityQuery } from '../../src/common/visibility/visibility-query';
import type { AssayClient, Batch, TaskPriority } from '../../src/sdk';
import type { BenchStack } from '../bench-stack';
import { benchClient } from '../bench-client';
import { sleep } from '../clock';
import { runClosedLoop } from '../closed-loop';
import { benchBatchItems } from '../task-input';
import { runLatencyScenario, type LatencyFigure } from './latency-at-rate';
import { BATCH_CREATE_TIMEOUT_MS, FLOOD_CREATORS, createPatiently, organisation, patiently, requireIssueKey, waitForBatchPatiently, type NeighbourSettings } from './noisy-neighbour';

/** How fast one organisation alone gets its work through a stack with the create limits on. */
export interface AloneDrain {
  work: number;
  /** First create (or the batch's created_at) until the last task closed, by the server's clock. */
  drainMs: number;
  perSecond: number;
  /** Creates answered 429 and sent again after their Retry-After; 0 for a batch. */
  refusals: number;
  failures: number;
}

/** Organisation A at its worst beside B's steady trickle: the figures of issue 51's adversary. */
export interface AdversaryRun {
  batchItems: number;
  floodTasks: number;
  neighbour: LatencyFigure;
  /** A's tasks that succeeded while B ran (its batch's and its creates'), and per second. */
  adversaryCompleted: number;
  adversaryPerSecond: number;
  /** A's creates answered 429 (and sent again after Retry-After). */
  adversaryRefusals: number;
}

export interface FairShareSettings {
  /** The adversary's batch (BENCH_ADVERSARY_BATCH, 10,000 by default). */
  adversaryBatchItems: number;
  /** How long B's trickle runs beside the adversary (BENCH_ADVERSARY_SECONDS, 120 by default). */
  adversaryMs: number;
}

export interface FairShareFigures {
  /** Closed-loop completions a second of the same stack with the create limits lifted, by server close time. */
  capacityPerSecond: number;
  createsAlone: AloneDrain;
  batchAlone: AloneDrain;
  /** B alone at its steady rate. */
  quiet: LatencyFigure;
  adversary: AdversaryRun;
}

// Visibility is written a moment after a workflow closes.
const VISIBILITY_SETTLE_MS = 2_000;
const MAX_ALONE_MS = 15 * 60_000;

/**
 * One organisation alone sends `tasks` creates from 32 connections as fast as the SDK's client may,
 * waiting out each 429's Retry-After; the figure is from its first create to the server's close
 * time of its last task.
 */
export async function runCreatesAlone(stack: BenchStack, tasks: number): Promise<AloneDrain> {
  const client = benchClient(stack, await requireIssueKey(stack)(organisation('creates-alone'), 'test'));
  let refusals = 0;
  let failures = 0;
  let lastClose = 0;
  const waits: Promise<void>[] = [];
  const startedAt = Date.now();
  await runClosedLoop(tasks, FLOOD_CREATORS, async () => {
    try {
      const task = await createPatiently(client, () => (refusals += 1));
      waits.push(
        client.waitForTask(task, { poll: { timeoutMs: MAX_ALONE_MS } }).then(
          (final) => {
            if (final.status !== 'succeeded') failures += 1;
            lastClose = Math.max(lastClose, Date.parse(final.updated_at));
          },
          () => {
            failures += 1;
          },
        ),
      );
    } catch {
      failures += 1;
    }
  });
  await Promise.all(waits);
  const drainMs = lastClose - startedAt;
  return { work: tasks, drainMs, perSecond: tasks / (drainMs / 1000), refusals, failures };
}

/** One organisation alone sends a batch of `items`; the figure is from its created_at to its ended_at, by the server's clock. */
export async function runBatchAlone(stack: BenchStack, items: number): Promise<AloneDrain> {
  const client = benchClient(stack, await requireIssueKey(stack)(organisation('batch-alone'), 'test'));
  const ended = await sendBatch(client, items, 'low');
  const drainMs = Date.parse(ended.ended_at ?? ended.updated_at) - Date.parse(ended.created_at);
  return { work: items, drainMs, perSecond: items / (drainMs / 1000), refusals: 0, failures: ended.counts.total - ended.counts.succeeded };
}

/**
 * Organisation A at once sends a batch of `batchItems` at `high` and floods creates at `high` from
 * 32 connections (waiting out each 429), for as long as organisation B sends `normal` tasks at its
 * steady rate (`durationMs`); then A stops, its batch is canceled, and A's tasks that succeeded
 * meanwhile are counted. Both in the sandbox.
 */
export async function runAdversary(stack: BenchStack, batchItems: number, neighbour: NeighbourSettings, durationMs: number): Promise<AdversaryRun> {
  const issueKey = requireIssueKey(stack);
  const adversaryOrganisation = organisation('adversary');
  const adversary = benchClient(stack, await issueKey(adversaryOrganisation, 'test'));
  const neighbourKey = await issueKey(organisation('trickle'), 'test');
  const connection = await Connection.connect(stack.connection);
  try {
    const workflows = new Client({ connection, namespace: stack.namespace }).workflow;
    let refusals = 0;
    let floodTasks = 0;
    let stopped = false;
    const startedAt = new Date();
    const batch = createBatchPatiently(adversary, batchItems, 'high');
    const creator = async () => {
      while (!stopped) {
        await createPatiently(adversary, () => (refusals += 1), 'high').then(
          () => (floodTasks += 1),
          () => undefined,
        );
      }
    };
    const flood = Promise.all(Array.from({ length: FLOOD_CREATORS }, creator));
    const trickle = await runLatencyScenario(stack, neighbour.neighbourRatePerSecond, durationMs, { apiKey: neighbourKey });
    stopped = true;
    const endedAt = new Date();
    await flood;
    await adversary.cancelBatch((await batch).id).catch(() => undefined);
    const succeeded = visibilityQuery([
      equals(ORGANIZATION_SEARCH_ATTRIBUTE.name, adversaryOrganisation),
      equals('ExecutionStatus', 'Completed'),
      equals('WorkflowType', AI_TASK_WORKFLOW_TYPE),
      `CloseTime <= ${quote(endedAt.toISOString())}`,
    ]);
    await sleep(VISIBILITY_SETTLE_MS);
    const adversaryCompleted = (await workflows.count(succeeded)).count;
    const elapsedSeconds = (endedAt.getTime() - startedAt.getTime()) / 1000;
    return { batchItems, floodTasks, neighbour: trickle, adversaryCompleted, adversaryPerSecond: adversaryCompleted / elapsedSeconds, adversaryRefusals: refusals };
  } finally {
    await connection.close();
  }
}

/** A batch of `items` at `priority`, read until it has ended. */
async function sendBatch(client: AssayClient, items: number, priority: TaskPriority): Promise<Batch> {
  const created = await createBatchPatiently(client, items, priority);
  return waitForBatchPatiently(client, created, performance.now() + MAX_ALONE_MS, () => undefined);
}

function createBatchPatiently(client: AssayClient, count: number, priority: TaskPriority): Promise<Batch> {
  return patiently(
    () => client.createBatch({ task_type: 'summarize', priority, items: benchBatchItems(count) }, { requestTimeoutMs: BATCH_CREATE_TIMEOUT_MS }),
    () => undefined,
  );
}

import { Client, Connection } from '@temporalio/client';
import { ORGANIZATION_SEARCH_ATTRIBUTE } from '../../src/contract';
import type { KeyEnvironment } from '../../src/common/keys/api-key';
import { AssayApiError, type AssayClient } from '../../src/sdk';
import type { BenchStack } from '../bench-stack';
import { benchClient } from '../bench-client';
import { sleep } from '../clock';
import { runClosedLoop } from '../closed-loop';
import { BENCH_TASK_INPUT } from '../task-input';
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

export interface FloodRun extends Dispatch {
  kind: FloodKind;
  neighbour: LatencyFigure;
  floodTasks: number;
  floodFailures: number;
  /** Creates of the flood answered 429 (and retried after Retry-After, as a patient client does). */
  floodRefusals: number;
  /** First create of the flood until the last of its tasks closed. */
  floodDrainMs: number;
  /** CPU of every measured process of the stack per task (flood and neighbour) over the run; 0 when not measured. */
  cpuMsPerTask: number;
}

export interface NoisyNeighbourFigures {
  settings: NeighbourSettings;
  /** The neighbour alone: in the sandbox (beside an organisation's flood) and in production (beside a sandbox flood). */
  quiet: Record<FloodKind, LatencyFigure>;
  floods: FloodRun[];
}

const FLOOD_CREATORS = 32;
const DRAIN_CHECK_MS = 250;
const MAX_FLOOD_MS = 300_000;
const NEIGHBOUR_ENVIRONMENT: Record<FloodKind, KeyEnvironment> = { organisation: 'test', sandbox: 'live' };

let runs = 0;

/** A fresh organisation per run, so no fairness counter or backlog of an earlier run is in play. */
function organisation(role: string): string {
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
    let drained = false;
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
      drained = true;
      return performance.now() - floodStartedAt;
    })();
    const neighbour = await runLatencyScenario(stack, settings.neighbourRatePerSecond, MAX_FLOOD_MS, { apiKey: neighbourKey, stopWhen: () => drained });
    const floodDrainMs = await flood;
    const cpuSeconds = neighbour.costs.reduce((sum, cost) => sum + cost.cpuSeconds, 0);
    const tasks = settings.floodTasks + neighbour.endToEndMs.count;
    return { kind, ...dispatch, neighbour, floodTasks: settings.floodTasks, floodFailures, floodRefusals, floodDrainMs, cpuMsPerTask: (cpuSeconds / tasks) * 1000 };
  } finally {
    await connection.close();
  }
}

async function createPatiently(client: AssayClient, refused: () => void): Promise<void> {
  for (;;) {
    try {
      await client.createTask({ task_type: 'summarize', input: BENCH_TASK_INPUT });
      return;
    } catch (error) {
      if (!(error instanceof AssayApiError && error.status === 429)) throw error;
      refused();
      await sleep(error.retryAfterMs ?? 1000);
    }
  }
}

function requireIssueKey(stack: BenchStack): NonNullable<BenchStack['issueKey']> {
  if (!stack.issueKey) throw new Error('the noisy-neighbour scenario needs the bench’s own stack (it issues keys for its organisations)');
  return stack.issueKey;
}

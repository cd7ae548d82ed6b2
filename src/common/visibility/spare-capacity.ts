import type { WorkflowClient } from '@temporalio/client';
import { AI_TASK_WORKFLOW_TYPE, ORGANIZATION_SEARCH_ATTRIBUTE } from '../../contract';
import { equals, notEquals, quote, visibilityQuery } from './visibility-query';

/**
 * How long after another organisation last started a workflow (in either environment) it still
 * counts as present: longer than the pauses of a steady trickle or a paced batch (one admission a
 * second), short enough that a customer left alone gets the machine back within seconds.
 */
export const NEIGHBOUR_LOOKBACK_MS = 5_000;

export interface SpareCapacityQuestion {
  organizationId: string;
  /** The organisation's environment, where its tasks run. */
  own: WorkflowClient;
  /** The other environment's, when this process reaches it: its work shares the machine. */
  other?: WorkflowClient;
  /** Tasks running in the environment up to which a lone organisation may start more. */
  inFlightWindow: number;
  now: Date;
}

export interface SpareCapacity {
  /** No other organisation started work lately: the limits, each one's share under contention, protect nobody. */
  alone: boolean;
  /** Tasks the organisation may start now beyond its limits: the room left under the in-flight window while alone, else 0. */
  room: number;
}

/**
 * How many tasks an organisation may start now beyond what its create limits guarantee it: none
 * while any other organisation has started work lately (the limits are then each one's share),
 * else the room left under the environment's in-flight window. A window of running tasks, not a
 * rate, so the pace is the stack's own: a task is lent a place only as another one closes, and
 * whatever is saturated (the API, the history service, the workers) slows the closes and with
 * them the lending. Two or three visibility counts.
 */
export async function spareTasks({ organizationId, own, other, inFlightWindow, now }: SpareCapacityQuestion): Promise<SpareCapacity> {
  // IS NOT NULL: Elasticsearch's != also matches workflows without the attribute (the service's own).
  const others = visibilityQuery([
    `${ORGANIZATION_SEARCH_ATTRIBUTE.name} IS NOT NULL`,
    notEquals(ORGANIZATION_SEARCH_ATTRIBUTE.name, organizationId),
    `StartTime > ${quote(new Date(now.getTime() - NEIGHBOUR_LOOKBACK_MS).toISOString())}`,
  ]);
  const running = visibilityQuery([equals('WorkflowType', AI_TASK_WORKFLOW_TYPE), equals('ExecutionStatus', 'Running')]);
  const [neighboursHere, neighboursThere, inFlight] = await Promise.all([
    own.count(others),
    other ? other.count(others) : { count: 0 },
    own.count(running),
  ]);
  if (neighboursHere.count > 0 || neighboursThere.count > 0) return { alone: false, room: 0 };
  return { alone: true, room: Math.max(0, inFlightWindow - inFlight.count) };
}

import type { Priority } from '@temporalio/common';
import { PRIORITY_LANE_SUFFIXES, type TaskPriority } from '../../contract';

/**
 * The priority a workflow of an organisation starts with. Its fairness key is the organisation's
 * lane for the work's priority (`acme+`, `acme`, `acme~`): on a busy task queue a task waits behind
 * its own lane's backlog only, so an organisation's `high` work overtakes its own `normal` and
 * `low` work, while every lane, whatever its priority, is dispatched in turn with every other
 * organisation's. Temporal's priority key is never set: it orders a queue before fairness does,
 * so one organisation's `high` would overtake every other organisation's work. Activities and child
 * workflows (model calls, assessment checks, webhook deliveries) inherit it: the server merges the
 * workflow's priority into each one it schedules.
 */
export function organizationPriority(organizationId: string, weights: ReadonlyMap<string, number>, priority: TaskPriority = 'normal'): Priority {
  const fairnessKey = `${organizationId}${PRIORITY_LANE_SUFFIXES[priority]}`;
  const fairnessWeight = weights.get(organizationId);
  return fairnessWeight === undefined ? { fairnessKey } : { fairnessKey, fairnessWeight };
}

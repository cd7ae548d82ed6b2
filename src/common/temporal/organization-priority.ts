import type { Priority } from '@temporalio/common';

/**
 * The priority an organisation's workflow starts with: the organisation is its fairness key, so
 * on a busy task queue its tasks wait behind its own backlog, not behind another's. Activities
 * and child workflows (assessment checks, webhook deliveries) inherit it: the server merges the
 * workflow's priority into each one it schedules.
 */
export function organizationPriority(organizationId: string, weights: ReadonlyMap<string, number>): Priority {
  const fairnessWeight = weights.get(organizationId);
  return fairnessWeight === undefined ? { fairnessKey: organizationId } : { fairnessKey: organizationId, fairnessWeight };
}

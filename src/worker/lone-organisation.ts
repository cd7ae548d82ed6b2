import type { WorkflowClient } from '@temporalio/client';
import { ORGANIZATION_SEARCH_ATTRIBUTE } from '../contract';
import { NEIGHBOUR_LOOKBACK_MS } from '../common/visibility/spare-capacity';
import { notEquals, quote, visibilityQuery } from '../common/visibility/visibility-query';

/**
 * Whether at most one organisation started work in these namespaces (both environments: they share
 * the machine) within NEIGHBOUR_LOOKBACK_MS: one it finds, then a count of the others.
 */
export async function oneOrganisationAtMost(namespaces: WorkflowClient[], now: Date): Promise<boolean> {
  const since = `StartTime > ${quote(new Date(now.getTime() - NEIGHBOUR_LOOKBACK_MS).toISOString())}`;
  // IS NOT NULL: the service's own workflows belong to no organisation.
  const organisations = `${ORGANIZATION_SEARCH_ATTRIBUTE.name} IS NOT NULL`;
  let found: string | undefined;
  for (const workflows of namespaces) {
    found = await someOrganisation(workflows, visibilityQuery([organisations, since]));
    if (found !== undefined) break;
  }
  if (found === undefined) return true;
  const others = visibilityQuery([organisations, notEquals(ORGANIZATION_SEARCH_ATTRIBUTE.name, found), since]);
  const counts = await Promise.all(namespaces.map((workflows) => workflows.count(others)));
  return counts.every(({ count }) => count === 0);
}

async function someOrganisation(workflows: WorkflowClient, query: string): Promise<string | undefined> {
  for await (const run of workflows.list({ query, pageSize: 1 })) return run.typedSearchAttributes.get(ORGANIZATION_SEARCH_ATTRIBUTE);
  return undefined;
}

import type { Finding, NetworkGraph } from '../../src/contract';
import type { ComponentAdjacency } from './adjacency';
import { describeComponent, plural } from '../../src/findings/finding-text';

export const DUPLICATE_COMPONENT_CHECK = 'duplicate_component_id';

/**
 * Ids must be unique (the API rejects duplicates); if some slip through, the checks keep the first
 * definition of each id, and this says so rather than silently dropping the others.
 */
export function findDuplicateComponents(graph: NetworkGraph, adjacency: ComponentAdjacency): Finding[] {
  const extraDefinitions = new Map<string, number>();
  for (const component of graph.components) {
    extraDefinitions.set(component.id, (extraDefinitions.get(component.id) ?? -1) + 1);
  }
  const findings: Finding[] = [];
  for (const [id, extra] of extraDefinitions) {
    if (extra === 0) continue;
    const kept = adjacency.components[adjacency.indexById.get(id) as number];
    findings.push({
      check: DUPLICATE_COMPONENT_CHECK,
      severity: 'medium',
      message: `Component id '${id}' is defined ${extra + 1} times; the checks use the first definition, ${describeComponent(kept)}, and ignore ${plural(extra, 'other')}.`,
      component_ids: [id],
    });
  }
  return findings;
}

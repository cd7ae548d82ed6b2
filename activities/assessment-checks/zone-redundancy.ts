import type { Finding, NetworkComponent, NetworkGraph } from '../../src/contract';
import type { ComponentAdjacency } from './adjacency';
import { EXTERNAL_KINDS, KINDS_REQUIRING_REDUNDANCY, normalizeKind } from './component-kinds';
import { compareStrings, describeComponent, listIds } from '../../src/findings/finding-text';

export const SINGLE_ZONE_CHECK = 'no_zone_redundancy';
export const MISSING_REDUNDANCY_CHECK = 'missing_redundancy';

/**
 * Two rules about redundancy by kind:
 * - a kind with two or more components was meant to be redundant, but if they all sit in one
 *   zone a single zone outage still takes every one of them down;
 * - a kind from KINDS_REQUIRING_REDUNDANCY with only one component is unprotected outright.
 */
export function findZoneRedundancyGaps(_graph: NetworkGraph, adjacency: ComponentAdjacency): Finding[] {
  const findings: Finding[] = [];
  for (const [kind, members] of groupByKind(adjacency.components)) {
    if (members.length === 1) {
      if (KINDS_REQUIRING_REDUNDANCY.has(kind)) {
        findings.push({
          check: MISSING_REDUNDANCY_CHECK,
          severity: 'high',
          message: `${describeComponent(members[0])} is the only ${kind}; a ${kind} needs a second instance, ideally in another zone.`,
          component_ids: [members[0].id],
        });
      }
      continue;
    }
    if (EXTERNAL_KINDS.has(kind)) continue;
    const zone = members[0].zone;
    if (members.every((member) => member.zone === zone)) {
      const ids = members.map((member) => member.id).sort(compareStrings);
      findings.push({
        check: SINGLE_ZONE_CHECK,
        severity: 'medium',
        message: `All ${members.length} ${kind} components (${listIds(ids)}) sit in zone ${zone}; one zone outage takes every one of them down.`,
        component_ids: ids,
      });
    }
  }
  return findings;
}

function groupByKind(components: readonly NetworkComponent[]): Map<string, NetworkComponent[]> {
  const byKind = new Map<string, NetworkComponent[]>();
  for (const component of components) {
    const kind = normalizeKind(component.kind);
    const members = byKind.get(kind);
    if (members) {
      members.push(component);
    } else {
      byKind.set(kind, [component]);
    }
  }
  return byKind;
}

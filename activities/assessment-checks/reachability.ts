import type { Finding, NetworkGraph } from '../../src/contract';
import { degreeOf, type ComponentAdjacency } from './adjacency';
import { ENTRY_KINDS, normalizeKind } from './component-kinds';
import { compareStrings, describeComponent, listIds, plural } from '../../src/findings/finding-text';

export const ISOLATED_COMPONENT_CHECK = 'isolated_component';
export const UNREACHABLE_COMPONENTS_CHECK = 'unreachable_components';

/**
 * Isolated: a component with no link to any other component (self-loops and links to unknown ids
 * do not count). Not reported when the graph has a single component, which has nothing to reach.
 *
 * Unreachable: links are taken as undirected, because customers draw arrows inconsistently. If any
 * component is of an entry kind (ENTRY_KINDS: internet, gateway, load_balancer, …), every connected
 * group with no entry component is unreachable. Without entry components, the largest connected
 * group is taken as the service and every other group is unreachable; on a tie in size, the group
 * holding the smallest id wins, so the choice does not depend on input order. One finding per
 * group; isolated components are reported only as isolated.
 */
export function findUnreachableComponents(_graph: NetworkGraph, adjacency: ComponentAdjacency): Finding[] {
  const { components } = adjacency;
  if (components.length < 2) return [];

  const findings: Finding[] = [];
  components.forEach((component, vertex) => {
    if (degreeOf(adjacency, vertex) === 0) {
      findings.push({
        check: ISOLATED_COMPONENT_CHECK,
        severity: 'medium',
        message: `${describeComponent(component)} has no link to any other component.`,
        component_ids: [component.id],
      });
    }
  });

  const groups = connectedGroups(adjacency).filter((group) => group.memberIds.length > 1);
  const hasEntryPoint = components.some((component) => ENTRY_KINDS.has(normalizeKind(component.kind)));
  const service = hasEntryPoint ? undefined : largestGroup(groups);
  for (const group of groups) {
    const reachable = hasEntryPoint ? group.containsEntryKind : group === service;
    if (reachable) continue;
    const reason = hasEntryPoint
      ? 'have no path to any entry point (internet, gateway, load balancer, …)'
      : 'are cut off from the largest connected part of the architecture';
    findings.push({
      check: UNREACHABLE_COMPONENTS_CHECK,
      severity: 'medium',
      message: `${plural(group.memberIds.length, 'component')} (${listIds(group.memberIds)}) ${reason}.`,
      component_ids: group.memberIds,
    });
  }
  return findings;
}

interface ConnectedGroup {
  /** Sorted, so the group's first id is its smallest. */
  memberIds: string[];
  containsEntryKind: boolean;
}

/** Breadth-first labelling with an explicit queue: O(V + E), no recursion. */
function connectedGroups(adjacency: ComponentAdjacency): ConnectedGroup[] {
  const { components, offsets, neighbours } = adjacency;
  const seen = new Uint8Array(components.length);
  const queue = new Int32Array(components.length);
  const groups: ConnectedGroup[] = [];
  for (let start = 0; start < components.length; start++) {
    if (seen[start]) continue;
    seen[start] = 1;
    queue[0] = start;
    let head = 0;
    let tail = 1;
    while (head < tail) {
      const vertex = queue[head++];
      for (let edge = offsets[vertex]; edge < offsets[vertex + 1]; edge++) {
        const neighbour = neighbours[edge];
        if (!seen[neighbour]) {
          seen[neighbour] = 1;
          queue[tail++] = neighbour;
        }
      }
    }
    const members = Array.from(queue.subarray(0, tail), (vertex) => components[vertex]);
    groups.push({
      memberIds: members.map((member) => member.id).sort(compareStrings),
      containsEntryKind: members.some((member) => ENTRY_KINDS.has(normalizeKind(member.kind))),
    });
  }
  return groups;
}

function largestGroup(groups: readonly ConnectedGroup[]): ConnectedGroup | undefined {
  let largest: ConnectedGroup | undefined;
  for (const group of groups) {
    const size = group.memberIds.length;
    if (
      !largest ||
      size > largest.memberIds.length ||
      (size === largest.memberIds.length && compareStrings(group.memberIds[0], largest.memberIds[0]) < 0)
    ) {
      largest = group;
    }
  }
  return largest;
}

import type { Finding, NetworkGraph } from '../../src/contract';
import type { ComponentAdjacency } from './adjacency';

export const DANGLING_LINK_CHECK = 'dangling_link';
export const SELF_LOOP_CHECK = 'self_loop_link';

/**
 * Links that name no component at one end, and links from a component to itself. The API rejects
 * the first kind at the edge; this is defence in depth for graphs that reach the checks some other
 * way. `component_ids` holds only the ends that exist, so it never names a missing component.
 */
export function findDanglingLinks(graph: NetworkGraph, adjacency: ComponentAdjacency): Finding[] {
  const findings: Finding[] = [];
  graph.links.forEach((link, linkIndex) => {
    const missing = [link.from, link.to].filter((id) => !adjacency.indexById.has(id));
    if (missing.length > 0) {
      const unknown = [...new Set(missing)].map((id) => `'${id}'`).join(' and ');
      findings.push({
        check: DANGLING_LINK_CHECK,
        severity: 'medium',
        message: `Link #${linkIndex + 1} from '${link.from}' to '${link.to}' names ${unknown}, which is not a component; the checks ignore this link.`,
        component_ids: [...new Set([link.from, link.to].filter((id) => adjacency.indexById.has(id)))],
      });
    } else if (link.from === link.to) {
      findings.push({
        check: SELF_LOOP_CHECK,
        severity: 'low',
        message: `Link #${linkIndex + 1} connects '${link.from}' to itself; it adds no redundancy and is probably a drawing mistake.`,
        component_ids: [link.from],
      });
    }
  });
  return findings;
}

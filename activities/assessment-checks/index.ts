import type { Finding, NetworkGraph } from '../../src/contract';
import { buildAdjacency, type ComponentAdjacency } from './adjacency';
import { findDanglingLinks } from './dangling-links';
import { findDuplicateComponents } from './duplicate-components';
import { orderAndCapFindings } from '../../workflows/finding-order';
import { findUnreachableComponents } from './reachability';
import { findSinglePointsOfFailure } from './single-points-of-failure';
import { findZoneRedundancyGaps } from './zone-redundancy';

export { MAX_FINDINGS_PER_CHECK, FINDINGS_TRUNCATED_CHECK } from '../../workflows/finding-order';
export { ARTICULATION_POINT_CHECK, BRIDGE_LINK_CHECK } from './single-points-of-failure';
export { SINGLE_ZONE_CHECK, MISSING_REDUNDANCY_CHECK } from './zone-redundancy';
export { ISOLATED_COMPONENT_CHECK, UNREACHABLE_COMPONENTS_CHECK } from './reachability';
export { DANGLING_LINK_CHECK, SELF_LOOP_CHECK } from './dangling-links';
export { DUPLICATE_COMPONENT_CHECK } from './duplicate-components';
export { KINDS_REQUIRING_REDUNDANCY, ENTRY_KINDS, EXTERNAL_KINDS } from './component-kinds';

type AssessmentCheck = (graph: NetworkGraph, adjacency: ComponentAdjacency) => Finding[];

const CHECKS: readonly AssessmentCheck[] = [
  findSinglePointsOfFailure,
  findZoneRedundancyGaps,
  findUnreachableComponents,
  findDanglingLinks,
  findDuplicateComponents,
];

/**
 * Every automated check of a submitted architecture, in one deterministic, size-capped list.
 * Pure and synchronous, so a retried activity yields the same findings for the same graph.
 */
export function runAssessmentChecks(graph: NetworkGraph): Finding[] {
  const adjacency = buildAdjacency(graph);
  return orderAndCapFindings(CHECKS.flatMap((check) => check(graph, adjacency)));
}

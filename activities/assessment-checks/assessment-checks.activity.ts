import type { Finding, NetworkGraph } from '../../src/contract';
import { buildAdjacency, type ComponentAdjacency } from './adjacency';
import { findDanglingLinks } from './dangling-links';
import { findDuplicateComponents } from './duplicate-components';
import { orderAndCapFindings } from '../../workflows/finding-order';
import { findUnreachableComponents } from './reachability';
import { findSinglePointsOfFailure } from './single-points-of-failure';
import { findZoneRedundancyGaps } from './zone-redundancy';

type GraphCheck = (graph: NetworkGraph, adjacency: ComponentAdjacency) => Finding[];

/**
 * The automated checks as four activities, so each shows as its own step in the workflow's
 * history. Each returns its findings ordered and capped per check (the caps are per check name and
 * every check name belongs to one activity, so the workflow's merge keeps exactly what
 * runAssessmentChecks would). Pure and synchronous, so a retry yields the same findings.
 */
export interface AssessmentCheckActivities {
  /** Articulation points and bridges. */
  checkSinglePointsOfFailure(graph: NetworkGraph): Promise<Finding[]>;
  /** Kinds confined to one zone, and lone instances of kinds that must be redundant. */
  checkZoneRedundancy(graph: NetworkGraph): Promise<Finding[]>;
  /** Isolated components and groups cut off from every entry point. */
  checkReachability(graph: NetworkGraph): Promise<Finding[]>;
  /** Links to nowhere, self-loops and duplicated component ids. */
  checkGraphIntegrity(graph: NetworkGraph): Promise<Finding[]>;
}

export function createAssessmentCheckActivities(): AssessmentCheckActivities {
  return {
    checkSinglePointsOfFailure: runChecks(findSinglePointsOfFailure),
    checkZoneRedundancy: runChecks(findZoneRedundancyGaps),
    checkReachability: runChecks(findUnreachableComponents),
    checkGraphIntegrity: runChecks(findDanglingLinks, findDuplicateComponents),
  };
}

function runChecks(...checks: GraphCheck[]): (graph: NetworkGraph) => Promise<Finding[]> {
  return async (graph) => {
    const adjacency = buildAdjacency(graph);
    return orderAndCapFindings(checks.flatMap((check) => check(graph, adjacency)));
  };
}

import { ASSESSMENT_CHECK_ACTIVITIES, type AssessmentCheckActivityName, type Finding, type NetworkGraph } from '../../src/contract';
import { buildAdjacency, type ComponentAdjacency } from './adjacency';
import { findDanglingLinks } from './dangling-links';
import { findDuplicateComponents } from './duplicate-components';
import { orderAndCapFindings } from '../../src/findings/finding-order';
import { findUnreachableComponents } from './reachability';
import { findSinglePointsOfFailure } from './single-points-of-failure';
import { findZoneRedundancyGaps } from './zone-redundancy';

type GraphCheck = (graph: NetworkGraph, adjacency: ComponentAdjacency) => Finding[];

/**
 * The graph checks behind each check activity the contract lists. Keyed by every name the
 * contract has, so a new check activity does not compile until it has its graph checks. Every
 * check name belongs to one activity, so capping per activity keeps what capping all at once keeps.
 */
const GRAPH_CHECKS: Record<AssessmentCheckActivityName, readonly GraphCheck[]> = {
  checkSinglePointsOfFailure: [findSinglePointsOfFailure],
  checkZoneRedundancy: [findZoneRedundancyGaps],
  checkReachability: [findUnreachableComponents],
  checkGraphIntegrity: [findDanglingLinks, findDuplicateComponents],
};

/** The findings of one check activity, ordered and capped per check. */
export function runCheckActivity(activity: AssessmentCheckActivityName, graph: NetworkGraph): Finding[] {
  return runGraphChecks(GRAPH_CHECKS[activity], graph);
}

/**
 * Every automated check of a submitted architecture, in one deterministic, size-capped list: what
 * the workflow's merge of all check activities yields. Pure and synchronous.
 */
export function runAssessmentChecks(graph: NetworkGraph): Finding[] {
  return runGraphChecks(ASSESSMENT_CHECK_ACTIVITIES.flatMap(({ activity }) => GRAPH_CHECKS[activity]), graph);
}

function runGraphChecks(checks: readonly GraphCheck[], graph: NetworkGraph): Finding[] {
  const adjacency = buildAdjacency(graph);
  return orderAndCapFindings(checks.flatMap((check) => check(graph, adjacency)));
}

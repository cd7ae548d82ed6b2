// The automated checks of an assessment: one registry of check activities. The workflow runs every
// entry, the worker registers an implementation for every entry (activities/assessment-checks), and
// adding a check means adding an entry here and its graph checks there.

import type { Finding, NetworkGraph } from './assessment';

/**
 * Each check activity, in the order the workflow schedules them, with what a reviewer reads when it
 * cannot run. The activity names are recorded in every assessment's history: renaming or
 * reordering one breaks replay of the assessments already started (docs/patch-policy.md).
 */
export const ASSESSMENT_CHECK_ACTIVITIES = [
  /** Articulation points and bridges. */
  { activity: 'checkSinglePointsOfFailure', subject: 'single points of failure' },
  /** Kinds confined to one zone, and lone instances of kinds that must be redundant. */
  { activity: 'checkZoneRedundancy', subject: 'zone redundancy' },
  /** Isolated components and groups cut off from every entry point. */
  { activity: 'checkReachability', subject: 'reachability' },
  /** Links to nowhere, self-loops and duplicated component ids. */
  { activity: 'checkGraphIntegrity', subject: 'links and component ids' },
] as const;

export type AssessmentCheckActivityName = (typeof ASSESSMENT_CHECK_ACTIVITIES)[number]['activity'];

/** Every check activity returns its findings ordered and capped per check (src/findings/finding-order.ts). */
export type AssessmentCheckActivities = Record<AssessmentCheckActivityName, (graph: NetworkGraph) => Promise<Finding[]>>;

import { ASSESSMENT_CHECK_ACTIVITIES, type AssessmentCheckActivities, type NetworkGraph } from '../../src/contract';
import { runCheckActivity } from './check-registry';

/**
 * The automated checks as one activity per entry of the contract's registry, so each shows as its
 * own step in the workflow's history. Pure and synchronous, so a retry yields the same findings.
 */
export function createAssessmentCheckActivities(): AssessmentCheckActivities {
  // fromEntries loses the key type; the entries are exactly the contract's names.
  return Object.fromEntries(
    ASSESSMENT_CHECK_ACTIVITIES.map(({ activity }) => [activity, async (graph: NetworkGraph) => runCheckActivity(activity, graph)] as const),
  ) as AssessmentCheckActivities;
}

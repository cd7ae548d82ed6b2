import { isCancellation, log, proxyActivities } from '@temporalio/workflow';
import type { AssessmentCheckActivities } from '../activities/assessment-checks/assessment-checks.activity';
// Pure ordering code shared with the activities, so the merged list is ordered exactly as runAssessmentChecks orders it.
import { orderAndCapFindings } from './finding-order';
import type { Finding, NetworkGraph } from '../src/contract';

export const CHECK_FAILED = 'automated_check_failed';

const activities = proxyActivities<AssessmentCheckActivities>({
  // Linear-time checks finish within ~150 ms on the largest accepted graph even on a loaded machine;
  // 15 s means a dead or stuck worker, and another one should take over soon.
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

const CHECKS: ReadonlyArray<{ activity: keyof AssessmentCheckActivities; subject: string }> = [
  { activity: 'checkSinglePointsOfFailure', subject: 'single points of failure' },
  { activity: 'checkZoneRedundancy', subject: 'zone redundancy' },
  { activity: 'checkReachability', subject: 'reachability' },
  { activity: 'checkGraphIntegrity', subject: 'links and component ids' },
];

/**
 * Runs every automated check in parallel and merges their findings. A check that keeps failing
 * (a defect: they are pure) becomes a finding asking for a manual look, so the review still goes
 * ahead instead of the assessment waiting forever for findings.
 */
export async function runAutomatedChecks(graph: NetworkGraph): Promise<Finding[]> {
  const results = await Promise.all(
    CHECKS.map(({ activity, subject }) =>
      activities[activity](graph).catch((error: unknown): Finding[] => {
        if (isCancellation(error)) throw error;
        log.error('automated check failed for good', { activity, error: String(error) });
        return [
          {
            check: CHECK_FAILED,
            severity: 'info',
            message: `The automated check of ${subject} could not run; the reviewer checks this by hand.`,
            component_ids: [],
          },
        ];
      }),
    ),
  );
  return orderAndCapFindings(results.flat());
}

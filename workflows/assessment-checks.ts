import { isCancellation, log, proxyActivities } from '@temporalio/workflow';
// Pure ordering code shared with the activities, so the merged list is ordered exactly as runAssessmentChecks orders it.
import { orderAndCapFindings } from '../src/findings/finding-order';
import { ASSESSMENT_CHECK_ACTIVITIES, type AssessmentCheckActivities, type Finding, type NetworkGraph } from '../src/contract';

export const CHECK_FAILED = 'automated_check_failed';

const activities = proxyActivities<AssessmentCheckActivities>({
  // Linear-time checks finish within ~150 ms on the largest accepted graph even on a loaded machine;
  // 15 s means a dead or stuck worker, and another one should take over soon.
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/**
 * Runs every check activity of the contract's registry in parallel and merges their findings. A
 * check that keeps failing (a defect: they are pure) becomes a finding asking for a manual look, so
 * the review still goes ahead instead of the assessment waiting forever for findings.
 */
export async function runAutomatedChecks(graph: NetworkGraph): Promise<Finding[]> {
  const results = await Promise.all(
    ASSESSMENT_CHECK_ACTIVITIES.map(({ activity, subject }) =>
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

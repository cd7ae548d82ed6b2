import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { OperatorCloseSweepActivities, OperatorCloseSweepInput } from '../src/contract';

const { sweepOperatorCloses } = proxyActivities<OperatorCloseSweepActivities>({
  // One visibility query and a few describes and starts per run found; operator closes are rare.
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/**
 * One sweep. It looks back from its own start, which the schedule sets even while no worker
 * runs, to the start of the window, and forward to whenever it runs: a sweep that waited for a
 * worker covers everything since, and the schedule skips the sweeps due while it waited.
 */
export async function operatorCloseSweepWorkflow(input: OperatorCloseSweepInput): Promise<number> {
  const closedSince = new Date(workflowInfo().startTime.getTime() - input.lookbackMs).toISOString();
  return sweepOperatorCloses({ closedSince });
}

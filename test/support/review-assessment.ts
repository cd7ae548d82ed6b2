import { Client, Connection } from '@temporalio/client';
import { assessmentWorkflowId, claimAssessmentUpdate, completeAssessmentUpdate } from '../../src/contract';
import { SANDBOX_NAMESPACE } from './test-temporal';

/** Alice claims the sandbox assessment (once its checks let her) and approves it, as the reviewer CLI would, straight through Temporal. */
export async function approveAssessment(temporalAddress: string, org: string, assessmentId: string): Promise<void> {
  const connection = await Connection.connect({ address: temporalAddress });
  try {
    const handle = new Client({ connection, namespace: SANDBOX_NAMESPACE }).workflow.getHandle(assessmentWorkflowId(org, assessmentId));
    for (let claimed = false; !claimed; ) {
      claimed = await handle.executeUpdate(claimAssessmentUpdate, { args: [{ reviewer: 'alice' }] }).then(
        () => true,
        () => new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 200)),
      );
    }
    await handle.executeUpdate(completeAssessmentUpdate, { args: [{ verdict: 'approved', notes: 'Fine.' }] });
  } finally {
    await connection.close();
  }
}

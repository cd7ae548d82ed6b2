import type { Client } from '@temporalio/client';
import { AI_TASK_WORKFLOW_TYPE, ASSESSMENT_WORKFLOW_TYPE } from '../../src/contract';
import { forEachConcurrently, sleep } from '../clients/concurrency';
import { readWorkflowRecord, type WorkflowRecord } from './workflow-record';

const HISTORY_READS_IN_PARALLEL = 16;
// Visibility is written shortly after the execution; the listing is read until it stops growing.
const LISTING_SETTLE_MS = 1_000;

// The workflows a client's work becomes; others (webhook deliveries) are consequences, not work.
const WORK_QUERY = `WorkflowType IN ('${AI_TASK_WORKFLOW_TYPE}', '${ASSESSMENT_WORKFLOW_TYPE}')`;

/**
 * Every task and assessment workflow run in the namespace, from visibility, each with its history
 * read. The stack's server is new for each scenario, so anything listed was caused by the
 * scenario: a run no work item accounts for is a duplicate.
 */
export async function auditNamespace(client: Client, expectedAtLeast: number, timeoutMs = 30_000): Promise<WorkflowRecord[]> {
  const executions = await settledListing(client, expectedAtLeast, timeoutMs);
  const records: WorkflowRecord[] = [];
  await forEachConcurrently(executions, HISTORY_READS_IN_PARALLEL, async ({ workflowId, runId }) => {
    records.push(await readWorkflowRecord(client, workflowId, runId));
  });
  return records;
}

async function settledListing(client: Client, expectedAtLeast: number, timeoutMs: number): Promise<Array<{ workflowId: string; runId: string }>> {
  const deadline = Date.now() + timeoutMs;
  let previous = -1;
  for (;;) {
    const executions: Array<{ workflowId: string; runId: string }> = [];
    for await (const execution of client.workflow.list({ query: WORK_QUERY })) executions.push({ workflowId: execution.workflowId, runId: execution.runId });
    const settled = executions.length === previous && executions.length >= expectedAtLeast;
    if (settled || Date.now() > deadline) return executions;
    previous = executions.length;
    await sleep(LISTING_SETTLE_MS);
  }
}

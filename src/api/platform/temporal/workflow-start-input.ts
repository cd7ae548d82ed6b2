import type { Client } from '@temporalio/client';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import type { temporal } from '@temporalio/proto';

/** The first of a history event's payloads (an input, a result), decoded and decrypted as the client's data converter does. */
export function decodeFirstPayload<T>(client: Client, payloads: temporal.api.common.v1.IPayload[] | null | undefined): Promise<T> {
  return decodeFromPayloadsAtIndex<T>(client.options.loadedDataConverter, 0, payloads);
}

/**
 * The first argument a workflow was started with, from the first event of its history: what was
 * submitted lives there, not in memo or queries. Throws WorkflowNotFoundError-like RPC errors as
 * the service reports them (e.g. once the history is past its retention).
 */
export async function readWorkflowStartInput<T>(client: Client, workflowId: string): Promise<T> {
  const { history } = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: { workflowId },
    maximumPageSize: 1,
  });
  const payloads = history?.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads;
  return decodeFirstPayload<T>(client, payloads);
}

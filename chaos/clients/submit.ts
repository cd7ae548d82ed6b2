import { AssayApiError, AssayNetworkError, RequestTimeoutError, type AssayClient } from '../../src/sdk';
import { sleep } from './concurrency';
import { isRetryableStatus } from './retryable';
import { assessmentRequest, taskRequest, type WorkItem } from './work-items';

const OUTER_RETRY_PAUSE_MS = 250;

/**
 * Creates the item through the SDK, whose own retries reuse the Idempotency-Key, and starts over
 * with the same key whenever those run out on an error a retry can fix (the API or Temporal may be
 * down for longer than the SDK's backoff), until the deadline or until the scenario is aborted.
 */
export async function submitUntilAccepted(client: AssayClient, item: WorkItem, deadline: number, signal: AbortSignal): Promise<void> {
  const options = { idempotencyKey: item.key, signal };
  for (;;) {
    try {
      const id =
        item.kind === 'task'
          ? (await client.createTask(taskRequest(item), options)).id
          : (await client.createAssessment(assessmentRequest(item), options)).assessment_id;
      item.ids.add(id);
      item.accepted = true;
      return;
    } catch (error) {
      if (signal.aborted || !isRetryable(error) || Date.now() > deadline) {
        item.error = error instanceof Error ? error.message : String(error);
        return;
      }
      await sleep(OUTER_RETRY_PAUSE_MS);
    }
  }
}

function isRetryable(error: unknown): boolean {
  if (error instanceof AssayNetworkError || error instanceof RequestTimeoutError) return true;
  return error instanceof AssayApiError && isRetryableStatus(error.status);
}

import type { Task } from '../../src/sdk';
import type { HttpLedger } from './http-ledger';
import { sleep } from './concurrency';
import { isRetryableStatus } from './retryable';
import { taskRequest, type WorkItem } from './work-items';

const RETRY_PAUSE_MS = 500;

export interface PreferWaitTarget {
  baseUrl: string;
  apiKey: string;
}

/**
 * A create with `Prefer: wait=<seconds>` (the SDK does not send one): the API holds the request
 * until the task is final or the wait is over. Sent again under the same Idempotency-Key after a
 * network error, a 5xx or a 429, until the deadline; answers the task as the create returned it.
 */
export async function createWithPreferWait(
  target: PreferWaitTarget,
  ledger: HttpLedger,
  item: WorkItem,
  request: { waitSeconds: number; model?: string; deadline: number; signal: AbortSignal },
): Promise<Task | undefined> {
  const fetch = ledger.fetch();
  const body = JSON.stringify({ ...taskRequest(item), ...(request.model === undefined ? {} : { model: request.model }) });
  const headers = {
    authorization: `Bearer ${target.apiKey}`,
    'content-type': 'application/json',
    'idempotency-key': item.key,
    prefer: `respond-async, wait=${request.waitSeconds}`,
  };
  while (!request.signal.aborted && Date.now() < request.deadline) {
    const response = await fetch(`${target.baseUrl}/v1/ai/tasks`, { method: 'POST', headers, body, signal: request.signal }).catch(() => undefined);
    if (response && response.status < 300) {
      const task = (await response.json()) as Task;
      item.ids.add(task.id);
      item.accepted = true;
      return task;
    }
    const text = await response?.text();
    if (response && !isRetryableStatus(response.status)) {
      item.error = `${response.status}: ${text}`;
      return undefined;
    }
    await sleep(RETRY_PAUSE_MS);
  }
  item.error ??= 'gave up at the deadline';
  return undefined;
}

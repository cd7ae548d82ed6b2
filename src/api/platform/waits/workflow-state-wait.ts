import type { KeyEnvironment } from '../../../common/keys/api-key';
import type { TemporalClients } from '../temporal/temporal-clients';

/** What of a resource a `Prefer: wait` on GET waits to see change, and when no change can come. */
export interface WatchedState<R> {
  /** The part of the resource whose change ends the wait (its status, a task's progress). */
  stateOf(resource: R): string;
  isFinal(resource: R): boolean;
}

/** A resource read from a workflow run, and how to read it again. */
export interface WorkflowStateWait<R> extends WatchedState<R> {
  environment: KeyEnvironment;
  workflowId: string;
  /** The run `current` was read from. */
  runId: string;
  current: R;
  read(): Promise<R>;
}

/**
 * Holds until the resource's state differs from `current`, it is final, or `seconds` pass, and
 * answers it as it then is. The wait is one long poll on the run's history at a time, so Temporal
 * wakes it when something happened instead of the API asking on a timer; each waking reads the
 * resource once (describe), and only a change of state answers. The first answer of the long poll
 * is the history so far: reading after it also catches a change between `current` and the poll.
 */
export async function waitForStateChange<R>(temporal: TemporalClients, wait: WorkflowStateWait<R>, seconds: number): Promise<R> {
  const deadline = Date.now() + seconds * 1000;
  const initial = wait.stateOf(wait.current);
  let latest = wait.current;
  let pageToken: Uint8Array | undefined;
  while (!wait.isFinal(latest)) {
    const remainingMs = deadline - Date.now();
    if (remainingMs <= 0) break;
    const poll = await temporal.awaitHistory(wait.environment, wait.workflowId, wait.runId, pageToken, remainingMs);
    if (!poll) break;
    const closed = poll.nextPageToken === undefined;
    if (poll.events === 0 && !closed) continue;
    latest = await wait.read();
    if (closed || wait.stateOf(latest) !== initial) break;
    pageToken = poll.nextPageToken;
  }
  return latest;
}

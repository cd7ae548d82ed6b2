import type { AssayClient } from '../../src/sdk';
import { forEachConcurrently } from './concurrency';
import { submitUntilAccepted } from './submit';
import { newWorkItem, type WorkItem } from './work-items';

/** Per set: too few to change the load, enough that a timer a kill loses shows. */
export const DEADLINE_TASKS = 8;

// Counted from when the tasks are sent; the fault strikes as soon as they are accepted. Every fault
// keeps its process down for its 1 s restart delay (DOWNTIME_MS in chaos/scenarios/process-kills.ts
// and test/cluster/process-kills.test.ts), and a restarted worker, API or Temporal server takes more
// than a second again to serve (1.2–10 s in the recorded runs); the work of a worker killed for
// good waits for Temporal's 10–30 s timeouts. Accepting the tasks takes from a few milliseconds to
// two seconds on a loaded machine. So the deadline is 3 s out, and a set accepted with less than
// MIN_LEAD_MS of it left is replaced: the deadline passes at least half a second after the kill
// (inside the downtime) and no more than about 3 s after it (while the process restarts, or just
// after a quick restart). The tasks are then queued, or summarising on the slow provider, or held
// by a dead process, and what fails them TIMED_OUT has to be the durable timer the server kept
// through the kill, not a process's memory.
const DEADLINE_AFTER_MS = 3_000;
const MIN_LEAD_MS = 500;

export interface DeadlineTasks {
  /** Every deadline task sent; each carries its deadline. */
  items: WorkItem[];
  /** The deadline of the set in flight at the fault, in ms since the epoch. */
  deadline: number;
}

/**
 * Sends a set of deadline tasks through the SDK like the other work (each with its
 * Idempotency-Key, retried until accepted, until `giveUpAt` or the abort) and resolves once they
 * were all answered with MIN_LEAD_MS to spare. A set accepted later (a machine too loaded) would
 * prove nothing about the fault: it is kept, to be judged with the others, and a fresh set is sent
 * with as much more time as accepting took.
 */
export async function submitDeadlineTasks(client: AssayClient, giveUpAt: number, signal: AbortSignal): Promise<DeadlineTasks> {
  const items: WorkItem[] = [];
  for (let leadMs = DEADLINE_AFTER_MS; ; ) {
    const sentAt = Date.now();
    const deadline = sentAt + leadMs;
    const set = Array.from({ length: DEADLINE_TASKS }, () => newWorkItem('task', new Date(deadline).toISOString()));
    items.push(...set);
    await forEachConcurrently(set, set.length, (item) => submitUntilAccepted(client, item, giveUpAt, signal));
    const now = Date.now();
    if (now <= deadline - MIN_LEAD_MS || now > giveUpAt || signal.aborted) return { items, deadline };
    leadMs += now - sentAt;
  }
}

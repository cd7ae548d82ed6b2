import { Client, type ConnectionLike } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { AdjustableSlots } from './adjustable-slots';
import { oneOrganisationAtMost } from './lone-organisation';

// Often enough that a neighbour's arrival shrinks the slots within about a second (plus the moment
// visibility takes to show its start); each look is two or three visibility calls per namespace.
const LOOK_INTERVAL_MS = 1_000;

export interface SlotsWhenAlone {
  /** Each task worker's workflow-task slots, their size under contention (WORKER_SLOTS_*) and while one organisation works alone. */
  slots: Array<{ supplier: AdjustableSlots; contended: number; alone: number }>;
  /** Both environments' namespaces, each on its own connection. */
  namespaces: Array<{ connection: ConnectionLike; namespace: string }>;
  workers: Worker[];
  logger?: Logger;
}

/**
 * Gives the task workers more workflow-task slots while at most one organisation works, and their
 * own number again once another arrives. Many slots keep a lone organisation's tasks moving through
 * the server's round trips; few keep a neighbour's task at the head of the queue, which fair
 * dispatch orders, instead of behind many others in the worker's one event loop, which it does not
 * (docs/benchmarks.md, "The engine gap split"). A look that fails counts as contended. Stops once
 * every worker has stopped.
 */
export function resizeSlotsWhenAlone({ slots, namespaces, workers, logger }: SlotsWhenAlone): void {
  const clients = namespaces.map(({ connection, namespace }) => new Client({ connection, namespace }).workflow);
  let alone = false;
  let looking = false;
  const timer = setInterval(() => {
    if (workers.every((worker) => ['STOPPED', 'FAILED'].includes(worker.getState()))) {
      clearInterval(timer);
      return;
    }
    if (looking) return;
    looking = true;
    void oneOrganisationAtMost(clients, new Date())
      .catch(() => false)
      .then((now) => {
        if (now !== alone) {
          alone = now;
          for (const size of slots) size.supplier.resize(alone ? size.alone : size.contended);
          logger?.info({ alone, slots: slots.map(({ supplier }) => supplier.size) }, 'workflow-task slots resized');
        }
      })
      .finally(() => (looking = false));
  }, LOOK_INTERVAL_MS);
  timer.unref();
}

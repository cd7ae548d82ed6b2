import { CancellationScope, isCancellation, makeContinueAsNewFunc, patched, proxyActivities, sleep, upsertMemo, workflowInfo } from '@temporalio/workflow';
import {
  BATCH_ADMISSION_PAGE,
  BATCH_ADMISSION_WINDOW,
  BATCH_PACED_ADMISSION_INTERVAL_MS,
  BATCH_PROGRESS_INTERVAL_MS,
  PACED_BATCH_COUNTS_PATCH,
  type AiBatchMemo,
  type AiBatchWorkflowInput,
  type BatchActivities,
  type BatchCounts,
  type BatchTaskCounts,
} from '../src/contract';
import { AdmissionPace } from './admission-pace';
import { emitWebhookEvent } from './emit-webhook-event';

// Retried without limit: a database or frontend that is away for a while must not lose a batch's items.
const { admitBatchItems, countBatchTasks, withdrawBatchItems, cancelBatchTasks } = proxyActivities<BatchActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

// Polls in a row (about a minute) that find nothing running and the same counts, after which a
// batch whose counts fall short of its admitted items (a task erased meanwhile counts nowhere) ends
// as it stands. Long enough that a task not yet visible (visibility lags on a busy cluster) is not
// taken for an erased one.
const SETTLED_POLLS = 20;
// A canceled batch whose tasks still run after this many polls cancels them again: a cancel request
// lost with a crashed worker, or a task an operator reset, must not hold the batch open.
const POLLS_BETWEEN_CANCEL_SWEEPS = 10;
// Well below Temporal's 10,240-event warning: a long batch continues as new with its state.
const HISTORY_EVENTS_BEFORE_CONTINUING = 3_000;

/**
 * One batch: admits its staged items as tasks a page at a time while few enough of them are
 * running, follows their counts until every admitted one is final, then ends with them in its memo
 * and one ai_batch.completed event. A cancel withdraws the items not admitted yet and cancels the
 * running tasks; the batch then ends once they have closed.
 */
export async function aiBatchWorkflow(input: AiBatchWorkflowInput): Promise<BatchCounts> {
  // Asked once, before the first command: the answer holds for the whole run, the cancel's second follow() included.
  // Without the patch, replay only (paced-batch-counts, may go from 2026-12-27): paced batches counted every second.
  const countsSparingly = input.pace !== undefined && patched(PACED_BATCH_COUNTS_PATCH);
  const state: FollowState = { admitted: input.admitted ?? 0, canceledAt: input.canceledAt, countsSparingly };
  const counts = state.canceledAt === undefined ? await followUntilCanceled(input, state) : await CancellationScope.nonCancellable(() => follow(input, state));
  const final: BatchCounts = { total: input.total, admitted: state.admitted, succeeded: counts.succeeded, failed: counts.failed };
  upsertMemo({ outcome: { ended_at: new Date().toISOString(), counts: final } } satisfies Partial<AiBatchMemo>);
  await emitWebhookEvent('ai_batch.completed', input.organizationId, input.batchId, 'completed');
  return final;
}

async function followUntilCanceled(input: AiBatchWorkflowInput, state: FollowState): Promise<BatchTaskCounts> {
  try {
    return await follow(input, state);
  } catch (error) {
    if (!isCancellation(error)) throw error;
  }
  state.canceledAt = new Date().toISOString();
  upsertMemo({ canceled_at: state.canceledAt } satisfies Partial<AiBatchMemo>);
  const ref = { organizationId: input.organizationId, batchId: input.batchId };
  return CancellationScope.nonCancellable(async () => {
    await withdrawBatchItems(ref);
    await cancelBatchTasks(ref);
    return follow(input, state);
  });
}

interface FollowState {
  admitted: number;
  canceledAt?: string;
  /** A paced batch counts once per progress interval while it admits, not before every admission. */
  countsSparingly: boolean;
}

async function follow(input: AiBatchWorkflowInput, state: FollowState): Promise<BatchTaskCounts> {
  const ref = { organizationId: input.organizationId, batchId: input.batchId };
  let previous: string | undefined;
  let settled = 0;
  let pollsSinceSweep = 0;
  let counted: { counts: BatchTaskCounts; at: number; admitted: number } | undefined;
  const pace = input.pace && new AdmissionPace(input.pace, Date.now());
  for (;;) {
    const admitting = state.canceledAt === undefined && state.admitted < input.total;
    // Each count reads every task of the batch from visibility, which on one SQLite file holds up
    // every other writer meanwhile: a paced batch admitting each second counts at its progress pace.
    if (!counted || !state.countsSparingly || !admitting || Date.now() - counted.at >= BATCH_PROGRESS_INTERVAL_MS) {
      counted = { counts: await countBatchTasks(ref), at: Date.now(), admitted: state.admitted };
    }
    const { counts } = counted;
    // Tasks admitted since the count are taken as running: the window is never overrun.
    const unfinished = counts.running + state.admitted - counted.admitted;
    if (admitting && unfinished + BATCH_ADMISSION_PAGE <= BATCH_ADMISSION_WINDOW) {
      const accruedSince = pace?.accruingSince;
      const limit = pace ? pace.take(BATCH_ADMISSION_PAGE, Date.now()) : BATCH_ADMISSION_PAGE;
      if (limit > 0) {
        const { admitted: _carried, canceledAt: _canceled, pace: _pace, ...batch } = input;
        // Waited for even when a cancel comes meanwhile: the starts it made must be known before the cancel sweeps.
        state.admitted = await CancellationScope.nonCancellable(() => admitBatchItems({ ...batch, fromIndex: state.admitted, limit, accruedSince }));
        upsertMemo({ admitted: state.admitted } satisfies Partial<AiBatchMemo>);
        if (!pace) continue;
      }
    }
    if (state.canceledAt !== undefined && counts.running > 0 && ++pollsSinceSweep >= POLLS_BETWEEN_CANCEL_SWEEPS) {
      await cancelBatchTasks(ref);
      pollsSinceSweep = 0;
    }
    if (!admitting && counts.running === 0) {
      if (counts.succeeded + counts.failed >= state.admitted) return counts;
      const seen = JSON.stringify(counts);
      settled = seen === previous ? settled + 1 : 0;
      previous = seen;
      if (settled >= SETTLED_POLLS) return counts;
    }
    if (workflowInfo().historyLength > HISTORY_EVENTS_BEFORE_CONTINUING) {
      await makeContinueAsNewFunc<typeof aiBatchWorkflow>({ memo: workflowInfo().memo })({ ...input, admitted: state.admitted, canceledAt: state.canceledAt });
    }
    await sleep(pace && admitting ? BATCH_PACED_ADMISSION_INTERVAL_MS : BATCH_PROGRESS_INTERVAL_MS);
  }
}

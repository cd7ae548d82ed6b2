// How a task summarises on a remote model: a workflow-only helper of the task workflow.

import { ActivityFailure, ApplicationFailure, proxyActivities, sleep, upsertMemo, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import { deploymentTaskQueue, modelTaskQueue, type ActivityTaskErrorCode, type ModelActivities, type ModelCallInput, type RemoteTaskModel } from '../src/contract';
import { combineGroups, planDocument } from './document-plan';
import type { UsageMeter } from './task-usage';

const PROVIDER_UNAVAILABLE: ActivityTaskErrorCode = 'PROVIDER_UNAVAILABLE';

// A call waits on the worker for one of the model's deployment-wide slots before it calls, so its
// start-to-close covers that wait and the provider's own timeout; heartbeats tell a dead worker
// within seconds. The attempts retry quickly (a 429's or 503's Retry-After sets the next one's
// delay); past them the workflow waits on a durable timer (callPatiently).
const MODEL_CALL_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 5,
    nonRetryableErrorTypes: ['INPUT_REJECTED' satisfies ActivityTaskErrorCode],
  },
};

const FIRST_PAUSE_MS = 30_000;
const LONGEST_PAUSE_MS = 5 * 60_000;

/**
 * The document's chunks summarised in parallel (at most the model's concurrency at once), then
 * their summaries combined level by level. Each call is an activity, so a worker that dies
 * mid-document leaves the finished calls in the history and the next worker makes only the rest.
 * Progress is published in the memo after every call, and each call's usage added to `meter`.
 */
export async function summarizeOnModel(text: string, model: RemoteTaskModel, maxSentences: number | undefined, meter: UsageMeter): Promise<string> {
  // A batch's item runs on the batch queue, but calls its model on the queue every task of the deployment shares.
  const { callModel } = proxyActivities<ModelActivities>({ ...MODEL_CALL_OPTIONS, taskQueue: modelTaskQueue(deploymentTaskQueue(workflowInfo().taskQueue), model.name) });
  const plan = planDocument(text, model);
  let completed = 0;
  const publishProgress = () => upsertMemo({ progress: { completed_steps: completed, total_steps: plan.totalSteps } });
  publishProgress();

  const call = async (kind: ModelCallInput['kind'], input: string, last: boolean): Promise<string> => {
    const request: ModelCallInput = { model: model.name, kind, text: input, maxOutputTokens: model.maxOutputTokens };
    if (last && maxSentences !== undefined) request.max_sentences = maxSentences;
    const { summary, usage } = await callPatiently(() => callModel(request), model.unavailableWaitMs);
    meter.add(usage);
    completed += 1;
    publishProgress();
    return summary;
  };

  const single = plan.chunks.length === 1;
  let summaries = await inLanes(plan.chunks, model.concurrency, (chunk) => call('chunk', chunk, single));
  while (summaries.length > 1) {
    const groups = combineGroups(summaries, plan);
    summaries = await inLanes(groups, model.concurrency, (group) => call('combine', group, groups.length === 1));
  }
  return summaries[0];
}

/**
 * The call, again after a durable pause whenever its attempts end with the provider unavailable,
 * until it has been unavailable for `patienceMs`: a provider that is down makes tasks wait, not fail.
 */
async function callPatiently<T>(call: () => Promise<T>, patienceMs: number): Promise<T> {
  let unavailableSince: number | undefined;
  for (let pauseMs = FIRST_PAUSE_MS; ; pauseMs = Math.min(pauseMs * 2, LONGEST_PAUSE_MS)) {
    try {
      return await call();
    } catch (error) {
      if (!providerUnavailable(error)) throw error;
      unavailableSince ??= Date.now();
      const waitedMs = Date.now() - unavailableSince;
      if (waitedMs >= patienceMs) throw error;
      await sleep(Math.min(pauseMs, patienceMs - waitedMs));
    }
  }
}

function providerUnavailable(error: unknown): boolean {
  return error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.type === PROVIDER_UNAVAILABLE;
}

/** `work` over the items with at most `lanes` running at once; the results in the items' order. */
async function inLanes<T, R>(items: T[], lanes: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (next < items.length && !failed) {
      const index = next++;
      try {
        results[index] = await work(items[index]);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
  return results;
}

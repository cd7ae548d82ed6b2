// How a task summarises on a remote model: a workflow-only helper of the task workflow.

import {
  ActivityFailure,
  ApplicationFailure,
  patched,
  proxyActivities,
  proxyLocalActivities,
  sleep,
  upsertMemo,
  workflowInfo,
  type ActivityOptions,
  type LocalActivityOptions,
} from '@temporalio/workflow';
import {
  CONTEXT_TOO_SMALL,
  LEARNED_CONTEXT_WINDOW_PATCH,
  deploymentTaskQueue,
  modelTaskQueue,
  type ActivityTaskErrorCode,
  type ContextTooSmallDetails,
  type ContextWindowActivities,
  type ModelActivities,
  type ModelCallInput,
  type RemoteTaskModel,
} from '../src/contract';
import { ContextWindow } from './context-window';
import { combineGroups, combineStepsFor, planDocument, splitIntoChunks, stepSizesOn, type StepSizes } from './document-plan';
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
    nonRetryableErrorTypes: ['INPUT_REJECTED' satisfies ActivityTaskErrorCode, CONTEXT_TOO_SMALL],
  },
};

// A read or write of a map in the worker's memory.
const CONTEXT_WINDOW_OPTIONS: LocalActivityOptions = { startToCloseTimeout: '5 seconds' };
const { learnedContextTokens, rememberContextTokens } = proxyLocalActivities<ContextWindowActivities>(CONTEXT_WINDOW_OPTIONS);

const FIRST_PAUSE_MS = 30_000;
const LONGEST_PAUSE_MS = 5 * 60_000;

/** One call of the plan: the text it summarises, and its summary once it returned. */
interface Step {
  input: string;
  summary?: string;
}

/**
 * The document's chunks summarised in parallel (at most the model's concurrency at once), then
 * their summaries combined level by level. Each call is an activity, so a worker that dies
 * mid-document leaves the finished calls in the history and the next worker makes only the rest.
 * Progress is published in the memo after every call, and each call's usage added to `meter`.
 *
 * The plan starts from the smallest window the worker learned for the model, else the declared
 * one. A call the provider refuses as longer than the window shrinks it (ContextWindow), teaches
 * the worker, and plans again what is left: the steps already done are kept.
 */
export async function summarizeOnModel(text: string, model: RemoteTaskModel, maxSentences: number | undefined, meter: UsageMeter): Promise<string> {
  // A batch's item runs on the batch queue, but calls its model on the queue every task of the deployment shares.
  const { callModel } = proxyActivities<ModelActivities>({ ...MODEL_CALL_OPTIONS, taskQueue: modelTaskQueue(deploymentTaskQueue(workflowInfo().taskQueue), model.name) });
  // Without the patch, replay only (learned-context-window, may go from 2027-01-06): the declared window alone.
  const contextWindow = new ContextWindow(model, patched(LEARNED_CONTEXT_WINDOW_PATCH) ? await learnedContextTokens(model.name) : null);
  const plan = planDocument(text, contextWindow.model);
  let sizes: StepSizes = plan;
  let completed = 0;
  let totalSteps = plan.totalSteps;
  const publishProgress = () => upsertMemo({ progress: { completed_steps: completed, total_steps: totalSteps } });
  publishProgress();

  const call = async (kind: ModelCallInput['kind'], step: Step, last: boolean): Promise<void> => {
    const request: ModelCallInput = { model: model.name, kind, text: step.input, maxOutputTokens: contextWindow.model.maxOutputTokens };
    if (last && maxSentences !== undefined) request.max_sentences = maxSentences;
    const { summary, usage } = await callPatiently(() => callModel(request), model.unavailableWaitMs);
    meter.add(usage);
    step.summary = summary;
    completed += 1;
    publishProgress();
  };
  // After a refusal: the window smaller, the worker taught what the task learned, the step sizes for the new window.
  const shrinkWindow = async (refusal: ContextTooSmallDetails) => {
    await rememberContextTokens(model.name, contextWindow.shrink(refusal.contextTokens));
    sizes = stepSizesOn(contextWindow.model);
  };
  const planRestAgain = (stepsLeft: number) => {
    totalSteps = completed + stepsLeft;
    publishProgress();
  };

  let chunks: Step[] = plan.chunks.map((input) => ({ input }));
  for (;;) {
    const single = chunks.length === 1;
    const refusal = await inLanes(chunks.filter(notDone), model.concurrency, (step) => call('chunk', step, single));
    if (!refusal) break;
    await shrinkWindow(refusal);
    chunks = chunks.flatMap((step) => (notDone(step) ? splitIntoChunks(step.input, sizes.chunkMaxChars).map((input) => ({ input })) : [step]));
    planRestAgain(chunks.filter(notDone).length + combineStepsFor(chunks.length, sizes.groupSize));
  }

  let summaries = chunks.map(summaryOf);
  while (summaries.length > 1) {
    const level = summaries;
    const { groupSize } = sizes;
    const groups: Step[] = combineGroups(level, sizes).map((input) => ({ input }));
    const refusal = await inLanes(groups, model.concurrency, (group) => call('combine', group, groups.length === 1));
    if (!refusal) {
      summaries = groups.map(summaryOf);
      continue;
    }
    await shrinkWindow(refusal);
    // A group combined stands for its summaries; those of the groups left are combined again, in smaller groups.
    summaries = groups.flatMap((group, index) => (notDone(group) ? level.slice(index * groupSize, (index + 1) * groupSize) : [summaryOf(group)]));
    planRestAgain(combineStepsFor(summaries.length, sizes.groupSize));
  }
  return summaries[0];
}

function notDone(step: Step): boolean {
  return step.summary === undefined;
}

function summaryOf(step: Step): string {
  return step.summary as string;
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

/**
 * `work` over the items with at most `lanes` running at once. A call refused as too long for the
 * model's context starts no further item but lets those in flight finish (their calls are kept),
 * and is answered with its details; any other failure is thrown at once.
 */
async function inLanes<T>(items: T[], lanes: number, work: (item: T) => Promise<void>): Promise<ContextTooSmallDetails | undefined> {
  let next = 0;
  let stopped = false;
  let refusal: ContextTooSmallDetails | undefined;
  const lane = async () => {
    while (next < items.length && !stopped) {
      const index = next++;
      try {
        await work(items[index]);
      } catch (error) {
        stopped = true;
        const details = contextTooSmall(error);
        if (!details) throw error;
        refusal ??= details;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
  return refusal;
}

/** The details of a call refused as longer than the model's context window, or undefined for any other failure. */
function contextTooSmall(error: unknown): ContextTooSmallDetails | undefined {
  if (!(error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.type === CONTEXT_TOO_SMALL)) return undefined;
  return (error.cause.details?.[0] as ContextTooSmallDetails | undefined) ?? {};
}

import { randomUUID } from 'node:crypto';
import { ApplicationFailure, sleep as activitySleep } from '@temporalio/activity';
import { defaultPayloadConverter } from '@temporalio/common';
import { tsToMs } from '@temporalio/common/lib/time';
import type { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities, type AssayActivities } from '../../../activities';
import { ExtractiveProvider } from '../../../activities/summarize/extractive-provider';
import { aiTaskWorkflow } from '../../../workflows';
import { planDocument } from '../../../workflows/document-plan';
import {
  CHARS_PER_TOKEN_ESTIMATE,
  CONTEXT_TOO_SMALL,
  MIN_CONTEXT_TOKENS,
  PROMPT_RESERVE_TOKENS,
  deadlineError,
  largestOutputTokens,
  modelTaskQueue,
  taskWorkflowId,
  type AiTaskWorkflowInput,
  type ModelActivities,
  type ModelCallInput,
  type ModelCallResult,
  type RemoteTaskModel,
  type TaskProgress,
} from '../../../src/contract';
import { bundlerLogger } from '../../../src/worker/bundler-logger';
import type { HeldFirstWorkflowTaskActivities } from '../../support/held-first-workflow-task';
import { localActivityTypes } from '../../support/local-activity-marker';
import { recordHistoryIfAsked } from '../../support/record-history';
import { perFile } from '../../support/per-file';
import { startWorkflowTestbed } from '../../support/workflow-testbed';

// The task workflow on a remote model, with the model's activity played by the test: what is
// checked is the workflow's plan, its progress and its waiting, not a provider (the real-model
// suite, test/e2e/real-model.test.ts, sends the same workflow to a real model server).

const testbed = perFile(() => startWorkflowTestbed('error'));

const MODEL: RemoteTaskModel = { name: 'small', kind: 'remote', contextTokens: 512, maxOutputTokens: 64, concurrency: 2, unavailableWaitMs: 60_000 };

/** About `sentences` sentences of 60-odd characters, each numbered so a chunk can be recognised. */
function document(sentences: number): string {
  return Array.from({ length: sentences }, (_, index) => `Sentence ${index} says the council met and spoke about the budget.`).join(' ');
}

interface ModelPlay {
  calls: ModelCallInput[];
  /** Calls in flight now and at most. */
  inFlight: number;
  maxInFlight: number;
}

/** A model activity that answers each call with a short summary naming the call, after `answer` decides. */
function playedModel(answer: (input: ModelCallInput, call: number) => Promise<ModelCallResult | void> = async () => undefined): { play: ModelPlay; activities: ModelActivities } {
  const play: ModelPlay = { calls: [], inFlight: 0, maxInFlight: 0 };
  return {
    play,
    activities: {
      async callModel(input) {
        play.calls.push(input);
        play.inFlight += 1;
        play.maxInFlight = Math.max(play.maxInFlight, play.inFlight);
        try {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return (await answer(input, play.calls.length)) ?? { summary: `Summary ${play.calls.length} of a ${input.kind}.`, usage: { input_tokens: 10, output_tokens: 5 } };
        } finally {
          play.inFlight -= 1;
        }
      },
    },
  };
}

interface TaskRun {
  /** The task's deadline this long after its workers are ready: creating them (loading the bundle into their threads) takes seconds on a loaded machine. */
  deadlineInMs?: number;
  /** A bundle for the workflows' worker other than the testbed's, with the activities it needs beside Assay's. */
  bundle?: { workflowBundle: WorkflowBundleWithSourceMap; activities: object };
  /** Assay's activities for the workflows' worker, as one worker process keeps them from task to task; fresh ones unless given. */
  assayActivities?: AssayActivities;
}

async function runOnModel(
  text: string,
  activities: ModelActivities,
  model: RemoteTaskModel = MODEL,
  maxSentences?: number,
  { deadlineInMs, bundle, assayActivities = createActivities({ summarizer: new ExtractiveProvider() }) }: TaskRun = {},
) {
  const taskQueue = `wf-test-${randomUUID()}`;
  const workflows = await testbed().createWorker({ taskQueue, ...bundle, activities: { ...assayActivities, ...bundle?.activities } });
  const models = await testbed().createWorker({ taskQueue: modelTaskQueue(taskQueue, model.name), activities, maxConcurrentActivityTaskExecutions: 10 });
  const deadline = deadlineInMs === undefined ? undefined : new Date(Date.now() + deadlineInMs).toISOString();
  const input: AiTaskWorkflowInput = {
    taskId: `task_${randomUUID()}`,
    organizationId: 'acme',
    taskType: 'summarize',
    input: maxSentences === undefined ? { text } : { text, max_sentences: maxSentences },
    model,
    ...(deadline ? { deadline } : {}),
  };
  const workflowId = taskWorkflowId('acme', randomUUID());
  const handle = await testbed().client.workflow.start(aiTaskWorkflow, { taskQueue, workflowId, args: [input] });
  const outcome = await models.runUntil(workflows.runUntil(handle.result()));
  return { outcome, handle, deadline };
}

/** Every progress the workflow published, in order, from its memo upserts. */
function progressSeen(history: temporal.api.history.v1.IHistory): TaskProgress[] {
  return (history.events ?? []).flatMap((event) => {
    const field = event.workflowPropertiesModifiedEventAttributes?.upsertedMemo?.fields?.progress;
    return field ? [defaultPayloadConverter.fromPayload<TaskProgress>(field)] : [];
  });
}

describe('aiTaskWorkflow on a remote model', () => {
  it('summarises a long text in chunks, then combines their summaries, counting progress up to the planned total', async () => {
    const text = document(100);
    const plan = planDocument(text, MODEL);
    // More chunks than one combine takes: two levels of combining.
    expect(plan.chunks.length).toBeGreaterThan(plan.groupSize);
    const { play, activities } = playedModel();
    const { outcome, handle } = await runOnModel(text, activities, MODEL, 2);

    const summary = `Summary ${plan.totalSteps} of a combine.`;
    expect(outcome).toEqual({
      status: 'succeeded',
      output: { summary },
      // The played model reports 10 tokens in and 5 out for every call.
      usage: {
        model: 'small',
        provider_calls: plan.totalSteps,
        input_tokens: 10 * plan.totalSteps,
        output_tokens: 5 * plan.totalSteps,
        input_characters: text.length,
        output_characters: summary.length,
      },
    });
    expect(play.calls).toHaveLength(plan.totalSteps);
    const chunkCalls = play.calls.filter((call) => call.kind === 'chunk');
    expect(chunkCalls.map((call) => call.text).sort()).toEqual([...plan.chunks].sort());
    // Only the call whose answer is the summary is asked for the client's length.
    expect(play.calls.filter((call) => call.max_sentences === 2)).toEqual([play.calls[play.calls.length - 1]]);
    expect(play.maxInFlight).toBeLessThanOrEqual(MODEL.concurrency);

    const progress = progressSeen(await handle.fetchHistory());
    expect(progress[0]).toEqual({ completed_steps: 0, total_steps: plan.totalSteps });
    expect(progress.map((step) => step.completed_steps)).toEqual(Array.from({ length: plan.totalSteps + 1 }, (_, index) => index));
    recordHistoryIfAsked(await handle.fetchHistory(), 'ai-task-model-chunks-learned-window');
  });

  it('summarises a short text in one call that gets the client\'s length, on the model\'s task queue, not in a local activity', async () => {
    const { play, activities } = playedModel();
    const { outcome, handle } = await runOnModel('The bridge reopens on Friday. Buses run as usual.', activities, MODEL, 1);
    expect(outcome).toMatchObject({ status: 'succeeded', output: { summary: 'Summary 1 of a chunk.' }, usage: { provider_calls: 1 } });
    expect(play.calls).toEqual([{ model: 'small', kind: 'chunk', text: 'The bridge reopens on Friday. Buses run as usual.', max_sentences: 1, maxOutputTokens: 64 }]);
    const history = await handle.fetchHistory();
    expect(localActivityTypes(history)).toEqual(['learnedContextTokens', 'recordTaskUsageAndCheckSubscribers']);
  });

  it('completes a text of the API\'s size limit (512 KiB) in steps', async () => {
    const text = document(9000).slice(0, 512 * 1024);
    const model: RemoteTaskModel = { ...MODEL, contextTokens: 8192, maxOutputTokens: 256, concurrency: 8 };
    const plan = planDocument(text, model);
    const { play, activities } = playedModel();
    const { outcome } = await runOnModel(text, activities, model);
    expect(outcome.status).toBe('succeeded');
    expect(play.calls).toHaveLength(plan.totalSteps);
    expect(plan.chunks.length).toBeGreaterThan(20);
  }, 180_000);

  it('fails INPUT_REJECTED, without further calls, when the model refuses a chunk', async () => {
    const { play, activities } = playedModel(async (input, call) => {
      if (call === 2) throw ApplicationFailure.nonRetryable('the provider rejected the input (HTTP 400)', 'INPUT_REJECTED');
    });
    const { outcome } = await runOnModel(document(60), { callModel: activities.callModel }, { ...MODEL, concurrency: 1 });
    // The call before the refusal was made and paid for: the failed task shows it.
    expect(outcome).toEqual({
      status: 'failed',
      error: { code: 'INPUT_REJECTED', message: 'the provider rejected the input (HTTP 400)' },
      usage: { model: 'small', provider_calls: 1, input_tokens: 10, output_tokens: 5, input_characters: expect.any(Number), output_characters: 0 },
    });
    expect(play.calls).toHaveLength(2);
  });

  it('waits out a provider that is down for less than the model allows, then succeeds', async () => {
    let down = true;
    const { play, activities } = playedModel(async () => {
      if (down) throw ApplicationFailure.create({ message: 'provider answered HTTP 503', type: 'PROVIDER_UNAVAILABLE', nextRetryDelay: 10 });
    });
    const running = runOnModel('One short text. Two sentences.', activities, { ...MODEL, unavailableWaitMs: 60_000 });
    while (play.calls.length < 6) await new Promise((resolve) => setTimeout(resolve, 50));
    down = false;
    const { outcome, handle } = await running;
    expect(outcome.status).toBe('succeeded');
    // Five quick attempts, a durable pause, then the call that succeeded.
    expect(play.calls.length).toBeGreaterThanOrEqual(6);
    const timers = ((await handle.fetchHistory()).events ?? []).filter((event) => event.timerStartedEventAttributes);
    expect(timers).toHaveLength(1);
  }, 90_000);

  it('fails PROVIDER_UNAVAILABLE once the provider has been down longer than the model allows', async () => {
    const { play, activities } = playedModel(async () => {
      throw ApplicationFailure.create({ message: 'provider answered HTTP 429', type: 'PROVIDER_UNAVAILABLE', nextRetryDelay: 10 });
    });
    const { outcome } = await runOnModel('One short text. Two sentences.', activities, { ...MODEL, unavailableWaitMs: 1_000 });
    // No call succeeded: nothing was used.
    expect(outcome).toEqual({ status: 'failed', error: { code: 'PROVIDER_UNAVAILABLE', message: 'provider answered HTTP 429' } });
    expect(play.calls).toHaveLength(10);
  });
});

/** The refusal of a call too long for a window of `contextTokens`, as the model activity fails with it; `stated`: whether the provider said its window. */
function contextTooSmall(contextTokens: number, stated = true): ApplicationFailure {
  return ApplicationFailure.create({
    message: 'summarisation provider rejected the input as longer than the model\'s context window (HTTP 400)',
    type: CONTEXT_TOO_SMALL,
    nonRetryable: true,
    details: [stated ? { contextTokens } : {}],
  });
}

/** Whether a call fits a window of `contextTokens` by the plan's own estimate: how a played server smaller than declared decides. */
function fits(input: ModelCallInput, contextTokens: number): boolean {
  return input.text.length / CHARS_PER_TOKEN_ESTIMATE + input.maxOutputTokens + PROMPT_RESERVE_TOKENS <= contextTokens;
}

describe('aiTaskWorkflow on a model whose server has a smaller context than declared', () => {
  // Declared at 4,096 tokens, served at 2,048: a chunk of the declared plan is refused.
  const DECLARED: RemoteTaskModel = { ...MODEL, contextTokens: 4096, concurrency: 2 };
  const SERVED_TOKENS = 2048;

  it('plans the rest again at the window the server stated, keeps the steps done, and the next task on the worker plans right at once', async () => {
    // A long chunk and a short one at the declared window, in flight together: the long one is refused, the short one is done.
    const text = document(200);
    const declaredPlan = planDocument(text, DECLARED);
    expect(declaredPlan.chunks.map((chunk) => chunk.length > 6000)).toEqual([true, false]);
    const { play, activities } = playedModel(async (input) => {
      if (!fits(input, SERVED_TOKENS)) throw contextTooSmall(SERVED_TOKENS);
    });
    const worker = createActivities({ summarizer: new ExtractiveProvider() });
    const { outcome, handle } = await runOnModel(text, activities, DECLARED, 2, { assayActivities: worker });

    const served = planDocument(text, { ...DECLARED, contextTokens: SERVED_TOKENS });
    const [long, short] = declaredPlan.chunks;
    const smallerChunks = planDocument(long, { ...DECLARED, contextTokens: SERVED_TOKENS }).chunks;
    // The refused call, the short chunk once, the long one in smaller chunks, then one combining call.
    const steps = 1 + smallerChunks.length + 1;
    expect(outcome).toMatchObject({ status: 'succeeded', usage: { provider_calls: steps } });
    expect(play.calls.map((call) => call.text)).toEqual(expect.arrayContaining([long, short, ...smallerChunks]));
    expect(play.calls).toHaveLength(1 + steps);
    expect(play.calls.filter((call) => call.text === short)).toHaveLength(1);
    expect(play.calls.filter((call) => !fits(call, SERVED_TOKENS)).map((call) => call.text)).toEqual([long]);
    // The combining call reads the summaries in the text's order: the long chunk's parts, then the short one's.
    const combine = play.calls[play.calls.length - 1];
    expect(combine).toMatchObject({ kind: 'combine', max_sentences: 2 });
    expect(combine.text.split('\n\n')).toHaveLength(smallerChunks.length + 1);

    const history = await handle.fetchHistory();
    const progress = progressSeen(history);
    expect(progress[0]).toEqual({ completed_steps: 0, total_steps: declaredPlan.totalSteps });
    expect(progress[progress.length - 1]).toEqual({ completed_steps: steps, total_steps: steps });
    const completed = progress.map((step) => step.completed_steps);
    expect(completed).toEqual([...completed].sort((a, b) => a - b));
    expect(localActivityTypes(history)).toEqual(['learnedContextTokens', 'rememberContextTokens', 'recordTaskUsageAndCheckSubscribers']);
    recordHistoryIfAsked(history, 'ai-task-model-context-replanned');

    // The worker remembers the window: the next task plans for it from the start and no call is refused.
    const next = playedModel(async (input) => {
      if (!fits(input, SERVED_TOKENS)) throw contextTooSmall(SERVED_TOKENS);
    });
    const again = await runOnModel(text, next.activities, DECLARED, 2, { assayActivities: worker });
    expect(again.outcome.status).toBe('succeeded');
    expect(next.play.calls).toHaveLength(served.totalSteps);
    expect(next.play.calls.every((call) => fits(call, SERVED_TOKENS))).toBe(true);
    expect(progressSeen(await again.handle.fetchHistory())[0]).toEqual({ completed_steps: 0, total_steps: served.totalSteps });
    // A worker that learned nothing (another process) plans with the declared window again.
    expect(await createActivities({ summarizer: new ExtractiveProvider() }).learnedContextTokens(DECLARED.name)).toBeNull();
  });

  it('combines again in smaller groups when a combining call is refused, keeping the groups already combined', async () => {
    // Twelve chunks in groups of ten: the first group is combined, the second refused by a server
    // that does not say its window, so the task halves it (to 512 tokens, groups of four).
    const model: RemoteTaskModel = { ...MODEL, contextTokens: 1024, concurrency: 1 };
    const text = document(500);
    const plan = planDocument(text, model);
    expect([plan.chunks.length, plan.groupSize]).toEqual([12, 10]);
    let combines = 0;
    const { play, activities } = playedModel(async (input) => {
      if (input.kind === 'combine' && ++combines === 2) throw contextTooSmall(0, false);
    });
    const { outcome, handle } = await runOnModel(text, activities, model);

    expect(outcome).toMatchObject({ status: 'succeeded', output: { summary: 'Summary 15 of a combine.' }, usage: { provider_calls: 14 } });
    expect(play.calls.filter((call) => call.kind === 'chunk').map((call) => call.text)).toEqual(plan.chunks);
    // One call summarised each chunk, in order (concurrency 1): "Summary k of a chunk." is chunk k's.
    const chunkSummary = (k: number) => `Summary ${k} of a chunk.`;
    expect(play.calls.filter((call) => call.kind === 'combine').map((call) => call.text)).toEqual([
      Array.from({ length: 10 }, (_, index) => chunkSummary(index + 1)).join('\n\n'),
      [chunkSummary(11), chunkSummary(12)].join('\n\n'),
      // The first group's combined summary is kept, not combined again.
      ['Summary 13 of a combine.', chunkSummary(11), chunkSummary(12)].join('\n\n'),
    ]);
    const progress = progressSeen(await handle.fetchHistory());
    expect(progress[0]).toEqual({ completed_steps: 0, total_steps: 15 });
    expect(progress[progress.length - 1]).toEqual({ completed_steps: 14, total_steps: 14 });
  });

  it('fails INPUT_REJECTED after a bounded number of smaller plans when the server refuses everything', async () => {
    const { play, activities } = playedModel(async () => {
      throw contextTooSmall(0, false);
    });
    const { outcome } = await runOnModel(document(10), activities, { ...MODEL, contextTokens: 8192, maxOutputTokens: 256, concurrency: 1 });
    // No call succeeded: nothing was used.
    expect(outcome).toEqual({
      status: 'failed',
      error: { code: 'INPUT_REJECTED', message: 'the model refused the text as longer than its context window, also in steps planned for 512 tokens (declared 8192)' },
    });
    // 8,192 halved to 4,096, 2,048, 1,024, 512 (whose answer must be shorter): four plans after the first, one call each.
    expect(play.calls.map((call) => call.maxOutputTokens)).toEqual([256, 256, 256, 256, largestOutputTokens(MIN_CONTEXT_TOKENS)]);
  });
});

describe('aiTaskWorkflow on a remote model, with a deadline', () => {
  it('fails TIMED_OUT when its deadline passes while the model call runs, and counts no usage for the canceled call', async () => {
    const { play, activities } = playedModel(() => activitySleep(30_000));
    const { outcome, handle, deadline } = await runOnModel('One short text. Two sentences.', activities, MODEL, undefined, { deadlineInMs: 5_000 });
    expect(outcome).toEqual({ status: 'failed', error: deadlineError(deadline as string) });
    expect(play.calls).toHaveLength(1);
    recordHistoryIfAsked(await handle.fetchHistory(), 'ai-task-deadline-passed-mid-call-learned-window');
  });

  it('fails TIMED_OUT when its call returns after the deadline, before the timer, started late, has fired', async () => {
    // The first workflow task, held 8 s, asks for the timer 5 s ahead and schedules the call; the
    // server starts both as that task completes, so the call has 5 s to return before the timer
    // fires, and returns 3 s after the deadline at the earliest.
    const workflowBundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../../workflows'),
      workflowInterceptorModules: [require.resolve('../../support/held-first-workflow-task')],
      logger: bundlerLogger,
    });
    const hold: HeldFirstWorkflowTaskActivities = { holdFirstWorkflowTask: () => new Promise((resolve) => setTimeout(resolve, 8_000)) };
    const { play, activities } = playedModel();
    const { outcome, handle, deadline } = await runOnModel('One short text. Two sentences.', activities, MODEL, undefined, { deadlineInMs: 5_000, bundle: { workflowBundle, activities: hold } });

    // The call was made and returned, so the task shows its usage, but it came after the deadline.
    expect(outcome).toEqual({
      status: 'failed',
      error: deadlineError(deadline as string),
      usage: { model: 'small', provider_calls: 1, input_tokens: 10, output_tokens: 5, input_characters: 30, output_characters: 0 },
    });
    expect(play.calls).toHaveLength(1);
    const events = (await handle.fetchHistory()).events ?? [];
    expect(events.some((event) => event.timerFiredEventAttributes)).toBe(false);
    const completed = events.find((event) => event.activityTaskCompletedEventAttributes);
    expect(tsToMs(completed?.eventTime)).toBeGreaterThan(Date.parse(deadline as string));
  }, 90_000);
});

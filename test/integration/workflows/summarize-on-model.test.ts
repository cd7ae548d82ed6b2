import { randomUUID } from 'node:crypto';
import { ApplicationFailure, sleep as activitySleep } from '@temporalio/activity';
import { defaultPayloadConverter } from '@temporalio/common';
import { tsToMs } from '@temporalio/common/lib/time';
import type { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../../activities';
import { ExtractiveProvider } from '../../../activities/summarize/extractive-provider';
import { aiTaskWorkflow } from '../../../workflows';
import { planDocument } from '../../../workflows/document-plan';
import {
  deadlineError,
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
import { localActivityTypeOf } from '../../support/local-activity-marker';
import { recordHistoryIfAsked } from '../../support/record-history';
import { startWorkflowTestbed, type WorkflowTestbed } from '../../support/workflow-testbed';

// The task workflow on a remote model, with the model's activity played by the test: what is
// checked is the workflow's plan, its progress and its waiting, not a provider (the real-model
// suite, test/e2e/real-model.test.ts, sends the same workflow to a real model server).

let testbed: WorkflowTestbed;

beforeAll(async () => {
  testbed = await startWorkflowTestbed('error');
});

afterAll(async () => {
  await testbed?.stop();
});

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
}

async function runOnModel(text: string, activities: ModelActivities, model: RemoteTaskModel = MODEL, maxSentences?: number, { deadlineInMs, bundle }: TaskRun = {}) {
  const taskQueue = `wf-test-${randomUUID()}`;
  const assayActivities = createActivities({ summarizer: new ExtractiveProvider() });
  const workflows = await testbed.createWorker({ taskQueue, ...bundle, activities: { ...assayActivities, ...bundle?.activities } });
  const models = await testbed.createWorker({ taskQueue: modelTaskQueue(taskQueue, model.name), activities, maxConcurrentActivityTaskExecutions: 10 });
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
  const handle = await testbed.client.workflow.start(aiTaskWorkflow, { taskQueue, workflowId, args: [input] });
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
    recordHistoryIfAsked(await handle.fetchHistory(), 'ai-task-model-chunks-usage');
  });

  it('summarises a short text in one call that gets the client\'s length, on the model\'s task queue, not in a local activity', async () => {
    const { play, activities } = playedModel();
    const { outcome, handle } = await runOnModel('The bridge reopens on Friday. Buses run as usual.', activities, MODEL, 1);
    expect(outcome).toMatchObject({ status: 'succeeded', output: { summary: 'Summary 1 of a chunk.' }, usage: { provider_calls: 1 } });
    expect(play.calls).toEqual([{ model: 'small', kind: 'chunk', text: 'The bridge reopens on Friday. Buses run as usual.', max_sentences: 1, maxOutputTokens: 64 }]);
    const history = await handle.fetchHistory();
    expect((history.events ?? []).flatMap((event) => localActivityTypeOf(event) ?? [])).toEqual(['recordTaskUsageAndCheckSubscribers']);
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

describe('aiTaskWorkflow on a remote model, with a deadline', () => {
  it('fails TIMED_OUT when its deadline passes while the model call runs, and counts no usage for the canceled call', async () => {
    const { play, activities } = playedModel(() => activitySleep(30_000));
    const { outcome, handle, deadline } = await runOnModel('One short text. Two sentences.', activities, MODEL, undefined, { deadlineInMs: 5_000 });
    expect(outcome).toEqual({ status: 'failed', error: deadlineError(deadline as string) });
    expect(play.calls).toHaveLength(1);
    recordHistoryIfAsked(await handle.fetchHistory(), 'ai-task-deadline-passed-mid-call');
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

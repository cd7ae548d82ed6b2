import { randomUUID } from 'node:crypto';
import { createActivities, type AssayActivities } from '../../../activities';
import { ExtractiveProvider } from '../../../activities/summarize/extractive-provider';
import { createExtractiveTaskActivities } from '../../../activities/summarize/extractive-task';
import { createSummarizeActivities } from '../../../activities/summarize/summarize.activity';
import { OpenAiCompatibleProvider } from '../../../activities/summarize/openai-compatible-provider';
import type { SummarizationProvider } from '../../../activities/summarize/provider';
import { aiTaskWorkflow } from '../../../workflows';
import { taskWorkflowId, type AiTaskWorkflowInput, type TaskCompletionActivities, type TaskModel } from '../../../src/contract';
import { localActivityTypes } from '../../support/local-activity-marker';
import { recordHistoryIfAsked } from '../../support/record-history';
import { ScriptedProvider } from '../../support/scripted-provider';
import { startWorkflowTestbed, type WorkflowTestbed } from '../../support/workflow-testbed';

let testbed: WorkflowTestbed;
let provider: ScriptedProvider;
let providerUrl: string;

beforeAll(async () => {
  testbed = await startWorkflowTestbed('error');
  provider = new ScriptedProvider('The summary from the provider.');
  providerUrl = await provider.listen();
});

afterAll(async () => {
  await testbed?.stop();
  await provider?.close();
});

function input(text: string, model?: TaskModel, deadline?: string): AiTaskWorkflowInput {
  return { taskId: `task_${randomUUID()}`, organizationId: 'acme', taskType: 'summarize', input: { text }, ...(model ? { model } : {}), ...(deadline ? { deadline } : {}) };
}

async function runTask(summarizer: SummarizationProvider, text: string, model?: TaskModel, replaced: Partial<AssayActivities> = {}, deadline?: string) {
  const taskQueue = `wf-test-${randomUUID()}`;
  const worker = await testbed.createWorker({ taskQueue, activities: { ...createActivities({ summarizer }), ...replaced } });
  const workflowId = taskWorkflowId('acme', randomUUID());
  const outcome = await worker.runUntil(testbed.client.workflow.execute(aiTaskWorkflow, { taskQueue, workflowId, args: [input(text, model, deadline)] }));
  return { outcome, workflowId };
}

/** The real extractive task activity and the real separate record, both ending in `completion`. */
function completingWith(completion: TaskCompletionActivities): Partial<AssayActivities> {
  return { ...completion, ...createExtractiveTaskActivities(createSummarizeActivities(new ExtractiveProvider()), completion) };
}

function openAi(): OpenAiCompatibleProvider {
  return new OpenAiCompatibleProvider({ baseUrl: providerUrl, model: 'test', timeoutMs: 5_000 });
}

describe('aiTaskWorkflow', () => {
  it('succeeds with the extractive summary of the text', async () => {
    const text = 'Rain is expected across the north on Monday. Winds will pick up by the evening. Schools stay open.';
    const { outcome } = await runTask(new ExtractiveProvider(), text);
    expect(outcome.status).toBe('succeeded');
    if (outcome.status === 'succeeded') expect(text).toContain(outcome.output.summary.split('.')[0]);
  });

  it('fails with INPUT_REJECTED, without retrying, when the provider refuses the input', async () => {
    provider.answer(400);
    const { outcome, workflowId } = await runTask(openAi(), 'Some text the provider will refuse.');
    expect(outcome).toEqual({ status: 'failed', error: { code: 'INPUT_REJECTED', message: expect.stringContaining('400') } });
    expect(provider.requests).toBe(1);
    recordHistoryIfAsked(await testbed.client.workflow.getHandle(workflowId).fetchHistory(), 'ai-task-remote-provider-rejected');
  });

  it('retries a provider that is briefly unavailable and then succeeds', async () => {
    provider.answer(503, 429);
    const { outcome, workflowId } = await runTask(openAi(), 'Some text for a flaky provider.');
    expect(outcome).toEqual({ status: 'succeeded', output: { summary: 'The summary from the provider.' } });
    expect(provider.requests).toBe(3);
    const history = await testbed.client.workflow.getHandle(workflowId).fetchHistory();
    expect(history.events?.filter((event) => event.activityTaskCompletedEventAttributes)).toHaveLength(1);
    expect(localActivityTypes(history)).toEqual(['summarizeInProcess', 'hasWebhookSubscribers']);
  });
});

describe('aiTaskWorkflow history', () => {
  it('summarises with an in-process provider in a local activity inside one workflow task, with no activity task', async () => {
    const { workflowId } = await runTask(new ExtractiveProvider(), 'The bridge reopens on Friday. Traffic will be light. Buses run as usual.');
    const history = await testbed.client.workflow.getHandle(workflowId).fetchHistory();
    recordHistoryIfAsked(history, 'ai-task-local-summary');
    const events = history.events ?? [];
    expect(events.filter((event) => event.workflowTaskCompletedEventAttributes)).toHaveLength(1);
    expect(events.some((event) => event.activityTaskScheduledEventAttributes)).toBe(false);
    expect(localActivityTypes(history)).toEqual(['summarizeInProcess', 'hasWebhookSubscribers']);
  });
});

const EXTRACTIVE: TaskModel = { name: 'extractive', kind: 'extractive' };

describe('aiTaskWorkflow with the built-in model named', () => {
  it('summarises in the extractive local activity even when the worker\'s default provider is remote', async () => {
    provider.answer();
    const text = 'The bridge reopens on Friday. Traffic will be light. Buses run as usual.';
    const { outcome, workflowId } = await runTask(openAi(), text, EXTRACTIVE);
    expect(outcome.status).toBe('succeeded');
    expect(provider.requests).toBe(0);
    const history = await testbed.client.workflow.getHandle(workflowId).fetchHistory();
    recordHistoryIfAsked(history, 'ai-task-extractive-in-one');
    // The summary, the usage record and the completion event's subscriber lookup: one local activity.
    expect(localActivityTypes(history)).toEqual(['summarizeExtractiveAndRecordUsage']);
    const summary = outcome.status === 'succeeded' ? outcome.output.summary : '';
    expect(outcome).toEqual({
      status: 'succeeded',
      output: { summary },
      usage: { model: 'extractive', provider_calls: 0, input_characters: text.length, output_characters: summary.length },
    });
  });

  it('summarises and records apart when the task has a deadline, which may cut the summary off', async () => {
    const deadline = new Date(Date.now() + 3_600_000).toISOString();
    const { outcome, workflowId } = await runTask(new ExtractiveProvider(), 'The bridge reopens on Friday. Traffic will be light.', EXTRACTIVE, {}, deadline);
    expect(outcome.status).toBe('succeeded');
    const history = await testbed.client.workflow.getHandle(workflowId).fetchHistory();
    expect(localActivityTypes(history)).toEqual(['summarizeExtractive', 'recordTaskUsageAndCheckSubscribers']);
    recordHistoryIfAsked(history, 'ai-task-deadline-in-time-judged');
  });
});

describe('aiTaskWorkflow emitting its completion event', () => {
  const TEXT = 'The bridge reopens on Friday. Traffic will be light. Buses run as usual.';

  it('starts the event when the task\'s local activity found a subscriber, without a lookup of its own', async () => {
    const { workflowId } = await runTask(new ExtractiveProvider(), TEXT, EXTRACTIVE, completingWith({
      recordTaskUsageAndCheckSubscribers: async () => ({ cost: null, subscribed: true }),
    }));
    const history = await testbed.client.workflow.getHandle(workflowId).fetchHistory();
    expect(localActivityTypes(history)).toEqual(['summarizeExtractiveAndRecordUsage']);
    expect(history.events?.filter((event) => event.startChildWorkflowExecutionInitiatedEventAttributes)).toHaveLength(1);
  });

  it('looks the subscribers up itself when the usage record could not', async () => {
    const lookups: string[] = [];
    const { workflowId } = await runTask(new ExtractiveProvider(), TEXT, EXTRACTIVE, {
      ...completingWith({ recordTaskUsageAndCheckSubscribers: async () => ({ cost: null }) }),
      hasWebhookSubscribers: async ({ organizationId }) => {
        lookups.push(organizationId);
        return false;
      },
    });
    const history = await testbed.client.workflow.getHandle(workflowId).fetchHistory();
    expect(localActivityTypes(history)).toEqual(['summarizeExtractiveAndRecordUsage', 'hasWebhookSubscribers']);
    expect(lookups).toEqual(['acme']);
    expect(history.events?.some((event) => event.startChildWorkflowExecutionInitiatedEventAttributes)).toBe(false);
  });
});

describe('aiTaskWorkflow recording the built-in model\'s usage', () => {
  it('records the usage in a local activity of its own, with its retries, when the task\'s local activity could not', async () => {
    const recordedOutputs: number[] = [];
    let failures = 0;
    const { outcome, workflowId } = await runTask(new ExtractiveProvider(), 'The bridge reopens on Friday. Traffic will be light.', EXTRACTIVE, completingWith({
      recordTaskUsageAndCheckSubscribers: async (record) => {
        // Down for the task's own attempt and the first retry of the record, then back.
        if (failures++ < 2) throw new Error('usage database unavailable');
        recordedOutputs.push(record.usage.output_characters);
        return { cost: null, subscribed: false };
      },
    }));
    expect(outcome).toMatchObject({ status: 'succeeded', usage: { model: 'extractive', provider_calls: 0 } });
    const history = await testbed.client.workflow.getHandle(workflowId).fetchHistory();
    expect(localActivityTypes(history)).toEqual(['summarizeExtractiveAndRecordUsage', 'recordTaskUsageAndCheckSubscribers']);
    const summary = outcome.status === 'succeeded' ? outcome.output.summary : '';
    expect(recordedOutputs).toEqual([summary.length]);
  });

  it('closes a task canceled before any worker took it as CANCELED, summarising and recording nothing', async () => {
    const calls: string[] = [];
    const taskQueue = `wf-test-${randomUUID()}`;
    const workflowId = taskWorkflowId('acme', randomUUID());
    const handle = await testbed.client.workflow.start(aiTaskWorkflow, { taskQueue, workflowId, args: [input('The bridge reopens on Friday.', EXTRACTIVE)] });
    await handle.cancel();
    const worker = await testbed.createWorker({
      taskQueue,
      activities: {
        ...createActivities({ summarizer: new ExtractiveProvider() }),
        ...completingWith({ recordTaskUsageAndCheckSubscribers: async (record) => (calls.push(record.taskId), { cost: null }) }),
      },
    });
    const outcome = await worker.runUntil(handle.result());
    expect(outcome).toEqual({ status: 'failed', error: { code: 'CANCELED', message: expect.any(String) } });
    expect(calls).toEqual([]);
  });
});

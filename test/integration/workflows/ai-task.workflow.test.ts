import { randomUUID } from 'node:crypto';
import type { temporal } from '@temporalio/proto';
import { createActivities, type AssayActivities } from '../../../activities';
import { ExtractiveProvider } from '../../../activities/summarize/extractive-provider';
import { OpenAiCompatibleProvider } from '../../../activities/summarize/openai-compatible-provider';
import type { SummarizationProvider } from '../../../activities/summarize/provider';
import { aiTaskWorkflow } from '../../../workflows';
import { taskWorkflowId, type AiTaskWorkflowInput, type TaskModel } from '../../../src/contract';
import { localActivityTypeOf } from '../../support/local-activity-marker';
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

function input(text: string, model?: TaskModel): AiTaskWorkflowInput {
  return { taskId: `task_${randomUUID()}`, organizationId: 'acme', taskType: 'summarize', input: { text }, ...(model ? { model } : {}) };
}

async function runTask(summarizer: SummarizationProvider, text: string, model?: TaskModel, replaced: Partial<AssayActivities> = {}) {
  const taskQueue = `wf-test-${randomUUID()}`;
  const worker = await testbed.createWorker({ taskQueue, activities: { ...createActivities({ summarizer }), ...replaced } });
  const workflowId = taskWorkflowId('acme', randomUUID());
  const outcome = await worker.runUntil(testbed.client.workflow.execute(aiTaskWorkflow, { taskQueue, workflowId, args: [input(text, model)] }));
  return { outcome, workflowId };
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

describe('aiTaskWorkflow with the built-in model named', () => {
  it('summarises in the extractive local activity even when the worker\'s default provider is remote', async () => {
    provider.answer();
    const text = 'The bridge reopens on Friday. Traffic will be light. Buses run as usual.';
    const { outcome, workflowId } = await runTask(openAi(), text, { name: 'extractive', kind: 'extractive' });
    expect(outcome.status).toBe('succeeded');
    expect(provider.requests).toBe(0);
    const history = await testbed.client.workflow.getHandle(workflowId).fetchHistory();
    recordHistoryIfAsked(history, 'ai-task-extractive-model-usage-subscribers');
    // The usage record looks up the completion event's subscribers too: no local activity of its own for that.
    expect(localActivityTypes(history)).toEqual(['summarizeExtractive', 'recordTaskUsageAndCheckSubscribers']);
  });
});

describe('aiTaskWorkflow emitting its completion event', () => {
  const EXTRACTIVE: TaskModel = { name: 'extractive', kind: 'extractive' };
  const TEXT = 'The bridge reopens on Friday. Traffic will be light. Buses run as usual.';

  it('starts the event when the usage record found a subscriber, without a lookup of its own', async () => {
    const { workflowId } = await runTask(new ExtractiveProvider(), TEXT, EXTRACTIVE, {
      recordTaskUsageAndCheckSubscribers: async () => ({ cost: null, subscribed: true }),
    });
    const history = await testbed.client.workflow.getHandle(workflowId).fetchHistory();
    expect(localActivityTypes(history)).toEqual(['summarizeExtractive', 'recordTaskUsageAndCheckSubscribers']);
    expect(history.events?.filter((event) => event.startChildWorkflowExecutionInitiatedEventAttributes)).toHaveLength(1);
  });

  it('looks the subscribers up itself when the usage record could not', async () => {
    const lookups: string[] = [];
    const { workflowId } = await runTask(new ExtractiveProvider(), TEXT, EXTRACTIVE, {
      recordTaskUsageAndCheckSubscribers: async () => ({ cost: null }),
      hasWebhookSubscribers: async ({ organizationId }) => {
        lookups.push(organizationId);
        return false;
      },
    });
    const history = await testbed.client.workflow.getHandle(workflowId).fetchHistory();
    expect(localActivityTypes(history)).toEqual(['summarizeExtractive', 'recordTaskUsageAndCheckSubscribers', 'hasWebhookSubscribers']);
    expect(lookups).toEqual(['acme']);
    expect(history.events?.some((event) => event.startChildWorkflowExecutionInitiatedEventAttributes)).toBe(false);
  });
});

/** The activity type of every local activity the history recorded, in order. */
function localActivityTypes(history: temporal.api.history.v1.IHistory): string[] {
  return (history.events ?? []).flatMap((event) => localActivityTypeOf(event) ?? []);
}

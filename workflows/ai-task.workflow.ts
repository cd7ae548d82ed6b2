import { patched, proxyActivities, proxyLocalActivities, upsertMemo, upsertSearchAttributes, type LocalActivityOptions } from '@temporalio/workflow';
import {
  EMIT_WEBHOOK_EVENTS_PATCH,
  EXTRACTIVE_TASK_IN_ONE_PATCH,
  LOCAL_SUMMARY_PATCH,
  PUBLISH_TASK_OUTCOME_PATCH,
  RECORD_USAGE_PATCH,
  STATUS_SEARCH_ATTRIBUTE,
  type ActivityTaskErrorCode,
  taskOutcomeName,
  type AiTaskOutcome,
  type AiTaskWorkflowInput,
  type ExtractiveTaskActivities,
  type SummarizeActivities,
  type SummarizeInput,
  type SummaryAndRecordedUsage,
  type TaskModel,
  type WebhookEventType,
} from '../src/contract';
import { taskErrorFrom } from './task-error';
import { emitWebhookEvent } from './emit-webhook-event';
import { summarizeOnModel } from './summarize-on-model';
import { beforeDeadline } from './task-deadline';
import { UsageMeter, withRecordedUsage, withUsage, type RecordedOutcome } from './task-usage';

const SUMMARIZE_OPTIONS: LocalActivityOptions = {
  startToCloseTimeout: '2 minutes',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    maximumAttempts: 6,
    nonRetryableErrorTypes: ['INPUT_REJECTED' satisfies ActivityTaskErrorCode],
  },
};

// An in-process provider summarises in a local activity, inside the workflow task that starts the
// task: no activity task to schedule, dispatch and record, one workflow task instead of two, which
// roughly halves the server's work per task (docs/benchmarks.md). A worker that dies mid-summary
// fails that workflow task, and the next worker summarises again. Tasks created before models were
// configurable, on a worker whose default provider is remote, summarise in an activity on the task
// queue; tasks created since on a remote model in summarizeOnModel.
const { summarizeInProcess, summarizeExtractive } = proxyLocalActivities<SummarizeActivities>(SUMMARIZE_OPTIONS);
const { summarize } = proxyActivities<SummarizeActivities>({ ...SUMMARIZE_OPTIONS, heartbeatTimeout: '30 seconds' });
// A local activity waits for its end when the task is canceled meanwhile (the default
// cancellation type): a summary whose usage it recorded closes the task with that usage.
const { summarizeExtractiveAndRecordUsage } = proxyLocalActivities<ExtractiveTaskActivities>(SUMMARIZE_OPTIONS);

const COMPLETED_EVENT: WebhookEventType = 'ai_task.completed';

/**
 * One AI task: run it, and always close with an outcome the API can show (a failure is data, not a
 * crash). The built-in model's path makes as few promises as it can: the SDK records a stack trace
 * for every promise a workflow makes (for its stack-trace query), which costs CPU per task.
 */
export async function aiTaskWorkflow(input: AiTaskWorkflowInput): Promise<AiTaskOutcome> {
  // Replay only (local-summary, may go from 2026-12-23; docs/patch-policy.md): tasks started before it.
  if (!patched(LOCAL_SUMMARY_PATCH)) return taskOnTaskQueue(input);
  const { outcome, subscribed } = await runAndRecord(input);
  publishOutcome(outcome);
  if (subscribed !== false) await emitWebhookEvent(COMPLETED_EVENT, input.organizationId, input.taskId, taskOutcomeName(outcome), subscribed);
  return outcome;
}

/** The task's work and, on a task that names its model, its usage recorded. */
function runAndRecord(input: AiTaskWorkflowInput): Promise<RecordedOutcome> {
  const { model } = input;
  // Without the patch, replay only (extractive-task-in-one, may go from 2026-12-28): built-in tasks started before it ran in steps.
  if (model?.kind === 'extractive' && input.deadline === undefined && patched(EXTRACTIVE_TASK_IN_ONE_PATCH)) return extractiveTaskInOne(input, model);
  return runInStepsAndRecord(input, model);
}

async function runInStepsAndRecord(input: AiTaskWorkflowInput, model: TaskModel | undefined): Promise<RecordedOutcome> {
  // Replay only (goes with record-usage, from 2026-12-27): tasks created before models could be chosen name none.
  if (!model) return { outcome: await beforeDeadline(input.deadline, () => runTask(() => summarizeText(input.input))) };
  const meter = new UsageMeter();
  const ran = await beforeDeadline(input.deadline, () => runTask(() => summarizeWithModel(input.input, model, meter)));
  // Replay only (record-usage, may go from 2026-12-27): tasks started before it close without recording their usage.
  if (!patched(RECORD_USAGE_PATCH)) return { outcome: ran };
  return withRecordedUsage(input, model, ran, meter, COMPLETED_EVENT);
}

/**
 * A task on the built-in model in one local activity: the summary, its usage recorded and the
 * completion event's subscribers looked up. When the record could not be made there, the usage is
 * recorded as on every other path, with the record's own retries. A task with a deadline keeps the
 * two apart: its timer may cut the summary off, and a task that timed out shows no usage.
 */
async function extractiveTaskInOne(input: AiTaskWorkflowInput, model: TaskModel): Promise<RecordedOutcome> {
  const meter = new UsageMeter();
  const { organizationId, taskId } = input;
  const usage = meter.usageBeforeOutput(model.name, input.input.text.length);
  let done: SummaryAndRecordedUsage;
  try {
    done = await summarizeExtractiveAndRecordUsage(input.input, { organizationId, taskId, usage }, { organizationId, type: COMPLETED_EVENT });
  } catch (error) {
    return withRecordedUsage(input, model, failedOutcome(error), meter, COMPLETED_EVENT);
  }
  const outcome = succeededOutcome(done.summary);
  const { recorded } = done;
  if (recorded === undefined) return withRecordedUsage(input, model, outcome, meter, COMPLETED_EVENT);
  return { outcome: withUsage(outcome, { ...usage, output_characters: done.summary.length }, recorded.cost), subscribed: recorded.subscribed };
}

/** The summary step of a task that names no model (replay only) and of the bench's raw engine. */
export async function summarizeText(input: SummarizeInput): Promise<string> {
  return (await summarizeInProcess(input)) ?? (await summarize(input));
}

/**
 * The model the task was created with: the built-in one in a local activity, as summarizeText's
 * in-process path; a remote one in steps on its own task queue.
 */
async function summarizeWithModel(input: SummarizeInput, model: TaskModel, meter: UsageMeter): Promise<string> {
  if (model.kind === 'extractive') return summarizeExtractive(input);
  return summarizeOnModel(input.text, model, input.max_sentences, meter);
}

/** Replay only (local-summary, may go from 2026-12-23): the workflow as it ran before that patch, with its own patches. */
async function taskOnTaskQueue(input: AiTaskWorkflowInput): Promise<AiTaskOutcome> {
  const outcome = await runTask(() => summarize(input.input));
  if (patched(PUBLISH_TASK_OUTCOME_PATCH)) publishOutcome(outcome);
  if (patched(EMIT_WEBHOOK_EVENTS_PATCH)) await emitWebhookEvent(COMPLETED_EVENT, input.organizationId, input.taskId, taskOutcomeName(outcome));
  return outcome;
}

/** The outcome as search attribute (for lists by status) and memo (so a GET needs no second call). */
function publishOutcome(outcome: AiTaskOutcome): void {
  upsertSearchAttributes([{ key: STATUS_SEARCH_ATTRIBUTE, value: outcome.status }]);
  upsertMemo({ outcome });
}

async function runTask(produceSummary: () => Promise<string>): Promise<AiTaskOutcome> {
  try {
    return succeededOutcome(await produceSummary());
  } catch (error) {
    return failedOutcome(error);
  }
}

function succeededOutcome(summary: string): AiTaskOutcome {
  return { status: 'succeeded', output: { summary } };
}

function failedOutcome(error: unknown): AiTaskOutcome {
  return { status: 'failed', error: taskErrorFrom(error) };
}

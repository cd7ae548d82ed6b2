// What a task used, added up as its calls return: a workflow-only helper of the task workflow.

import { CancellationScope, patched, proxyLocalActivities, type LocalActivityOptions } from '@temporalio/workflow';
import {
  USAGE_WITH_SUBSCRIBERS_PATCH,
  type AiTaskOutcome,
  type AiTaskWorkflowInput,
  type ModelUsage,
  type RecordedUsageAndSubscribers,
  type TaskCompletionActivities,
  type TaskModel,
  type TaskUsage,
  type TaskUsageRecord,
  type UsageActivities,
  type UsageRecordBeforeOutput,
  type WebhookEventType,
} from '../src/contract';

// A database that is briefly away should not cost the record; one that stays away must not hold
// the task open: it closes with its usage shown but not counted in the totals.
const RECORD_OPTIONS: LocalActivityOptions = {
  startToCloseTimeout: '10 seconds',
  scheduleToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
};
const { recordTaskUsage } = proxyLocalActivities<UsageActivities>(RECORD_OPTIONS);
const { recordTaskUsageAndCheckSubscribers } = proxyLocalActivities<TaskCompletionActivities>(RECORD_OPTIONS);

/** A task's calls to its model, counted as they return, so a task that fails midway still shows what it used. */
export class UsageMeter {
  private calls = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private tokensReported = false;

  add(usage: ModelUsage | undefined): void {
    this.calls += 1;
    if (!usage) return;
    this.tokensReported = true;
    this.inputTokens += usage.input_tokens;
    this.outputTokens += usage.output_tokens;
  }

  get providerCalls(): number {
    return this.calls;
  }

  usage(model: string, inputCharacters: number, outputCharacters: number): Omit<TaskUsage, 'cost'> {
    return { ...this.usageBeforeOutput(model, inputCharacters), output_characters: outputCharacters };
  }

  /** The usage so far, before the task's output exists. */
  usageBeforeOutput(model: string, inputCharacters: number): UsageRecordBeforeOutput['usage'] {
    const tokens = this.tokensReported ? { input_tokens: this.inputTokens, output_tokens: this.outputTokens } : {};
    return { model, provider_calls: this.calls, ...tokens, input_characters: inputCharacters };
  }
}

/** The outcome showing its usage, with the cost the record found (null without a price). */
export function withUsage(outcome: AiTaskOutcome, usage: Omit<TaskUsage, 'cost'>, cost: number | null): AiTaskOutcome {
  return { ...outcome, usage: cost === null ? usage : { ...usage, cost } };
}

/** The outcome with its usage, and whether its completion event has subscribers when the record could tell. */
export interface RecordedOutcome {
  outcome: AiTaskOutcome;
  subscribed?: boolean;
}

/**
 * The outcome with the task's usage, recorded first (once per task, however often this runs) so
 * the daily totals count it. A task that failed before calling its model used nothing. The same
 * local activity looks up who subscribes to `event`, which the task emits as it closes.
 */
export async function withRecordedUsage(
  input: AiTaskWorkflowInput,
  model: TaskModel,
  outcome: AiTaskOutcome,
  meter: UsageMeter,
  event: WebhookEventType,
): Promise<RecordedOutcome> {
  if (outcome.status === 'failed' && meter.providerCalls === 0) return { outcome };
  const usage = meter.usage(model.name, input.input.text.length, outcome.status === 'succeeded' ? outcome.output.summary.length : 0);
  const record: TaskUsageRecord = { organizationId: input.organizationId, taskId: input.taskId, usage };
  try {
    // A canceled task still records what it used. Without the patch, replay only (usage-with-subscribers, may go from 2026-12-27).
    const { cost, subscribed }: RecordedUsageAndSubscribers = await CancellationScope.nonCancellable(() =>
      patched(USAGE_WITH_SUBSCRIBERS_PATCH)
        ? recordTaskUsageAndCheckSubscribers(record, { organizationId: input.organizationId, type: event })
        : recordTaskUsage(record),
    );
    return { outcome: withUsage(outcome, usage, cost), subscribed };
  } catch {
    return { outcome: { ...outcome, usage } };
  }
}

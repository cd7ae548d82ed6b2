// What a task used, added up as its calls return: a workflow-only helper of the task workflow.

import { CancellationScope, proxyLocalActivities } from '@temporalio/workflow';
import type { AiTaskOutcome, AiTaskWorkflowInput, ModelUsage, TaskModel, TaskUsage, UsageActivities } from '../src/contract';

// A database that is briefly away should not cost the record; one that stays away must not hold
// the task open: it closes with its usage shown but not counted in the totals.
const { recordTaskUsage } = proxyLocalActivities<UsageActivities>({
  startToCloseTimeout: '10 seconds',
  scheduleToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

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
    const tokens = this.tokensReported ? { input_tokens: this.inputTokens, output_tokens: this.outputTokens } : {};
    return { model, provider_calls: this.calls, ...tokens, input_characters: inputCharacters, output_characters: outputCharacters };
  }
}

/**
 * The outcome with the task's usage, recorded first (once per task, however often this runs) so
 * the daily totals count it. A task that failed before calling its model used nothing.
 */
export async function withRecordedUsage(input: AiTaskWorkflowInput, model: TaskModel, outcome: AiTaskOutcome, meter: UsageMeter): Promise<AiTaskOutcome> {
  if (outcome.status === 'failed' && meter.providerCalls === 0) return outcome;
  const usage = meter.usage(model.name, input.input.text.length, outcome.status === 'succeeded' ? outcome.output.summary.length : 0);
  try {
    // A canceled task still records what it used.
    const { cost } = await CancellationScope.nonCancellable(() => recordTaskUsage({ organizationId: input.organizationId, taskId: input.taskId, usage }));
    return { ...outcome, usage: cost === null ? usage : { ...usage, cost } };
  } catch {
    return { ...outcome, usage };
  }
}

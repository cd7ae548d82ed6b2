import { Context } from '@temporalio/activity';
import type { RemoteModel } from '../../src/common/config/model-catalog';
import type { KeyEnvironment } from '../../src/common/keys/api-key';
import type { UsageStore } from '../../src/common/storage/usage-store';
import type { RecordedUsage, TaskUsageRecord, UsageActivities } from '../../src/contract';

export interface UsageActivityDependencies {
  store: UsageStore;
  /** The model's prices, when the worker knows it (undefined for the built-in model). */
  priceOf: (model: string) => Pick<RemoteModel, 'pricePer1kInputTokens' | 'pricePer1kOutputTokens'> | undefined;
  environmentOf: (namespace: string) => KeyEnvironment;
  now?: () => Date;
}

export function createUsageActivities({ store, priceOf, environmentOf, now = () => new Date() }: UsageActivityDependencies): UsageActivities {
  return {
    async recordTaskUsage(record: TaskUsageRecord): Promise<RecordedUsage> {
      const environment = environmentOf(Context.current().info.namespace);
      const at = now();
      const { usage } = record;
      const stored = await store.record({
        environment,
        organizationId: record.organizationId,
        taskId: record.taskId,
        day: at.toISOString().slice(0, 10),
        model: usage.model,
        providerCalls: usage.provider_calls,
        inputTokens: usage.input_tokens ?? null,
        outputTokens: usage.output_tokens ?? null,
        inputCharacters: usage.input_characters,
        outputCharacters: usage.output_characters,
        cost: costOf(record, priceOf(usage.model)),
        recordedAt: at.toISOString(),
      });
      if (stored.recorded) countTokens(environment, record);
      return { cost: stored.cost };
    },
  };
}

/** assay_model_tokens_total on the worker's metrics endpoint, counted by the worker that recorded the usage, so once per task. */
function countTokens(environment: KeyEnvironment, { usage }: TaskUsageRecord): void {
  const counter = Context.current().metricMeter.createCounter('assay_model_tokens', 'tokens', 'Tokens the models reported, by model, environment and direction');
  if (usage.input_tokens !== undefined) counter.add(usage.input_tokens, { model: usage.model, environment, direction: 'input' });
  if (usage.output_tokens !== undefined) counter.add(usage.output_tokens, { model: usage.model, environment, direction: 'output' });
}

/** Null without a price, or without the tokens a price applies to. */
function costOf({ usage }: TaskUsageRecord, price: ReturnType<UsageActivityDependencies['priceOf']>): number | null {
  if (!price || (price.pricePer1kInputTokens === undefined && price.pricePer1kOutputTokens === undefined)) return null;
  if (usage.input_tokens === undefined || usage.output_tokens === undefined) return null;
  const cost = (usage.input_tokens / 1000) * (price.pricePer1kInputTokens ?? 0) + (usage.output_tokens / 1000) * (price.pricePer1kOutputTokens ?? 0);
  // Whole millionths: sums over many tasks stay exact enough and the figure stays readable.
  return Math.round(cost * 1e6) / 1e6;
}

import type {
  AssessmentCheckActivities,
  BatchActivities,
  ContextWindowActivities,
  ExtractiveTaskActivities,
  SummarizeActivities,
  TaskCompletionActivities,
  UsageActivities,
  WebhookActivities,
  WebhookSubscriberActivities,
} from '../src/contract';
import { createBatchActivities, type BatchActivityDependencies } from './batches/batch-activities';
import { createAssessmentCheckActivities } from './assessment-checks/assessment-checks.activity';
import type { SummarizationProvider } from './summarize/provider';
import { createExtractiveTaskActivities } from './summarize/extractive-task';
import { createContextWindowActivities } from './summarize/learned-context-windows';
import { createSummarizeActivities } from './summarize/summarize.activity';
import { createTaskCompletionActivities } from './usage/usage-and-subscribers';
import { createUsageActivities, type UsageActivityDependencies } from './usage/usage-activities';
import { createWebhookActivities, type WebhookActivityDependencies } from './webhooks/webhook-activities';

export interface ActivityDependencies {
  summarizer: SummarizationProvider;
  /** Absent in workflow tests that deliver nothing: then no organisation has a webhook subscriber. */
  webhooks?: WebhookActivityDependencies;
  /** Absent in workflow tests that count nothing: then usage is shown on the task but recorded nowhere. */
  usage?: UsageActivityDependencies;
  /** Absent in workflow tests that run no batch. */
  batches?: BatchActivityDependencies;
}

export type AssayActivities = SummarizeActivities &
  AssessmentCheckActivities &
  WebhookSubscriberActivities &
  UsageActivities &
  TaskCompletionActivities &
  ExtractiveTaskActivities &
  ContextWindowActivities &
  Partial<WebhookActivities> &
  Partial<BatchActivities>;

// Workflows always ask whether anyone subscribed, so the answer must be registered even without a store.
const NO_WEBHOOKS: WebhookSubscriberActivities = { hasWebhookSubscribers: async () => false };
const NO_USAGE_RECORDS: UsageActivities = { recordTaskUsage: async () => ({ cost: null }) };

/** Every activity the worker registers, built from its dependencies. */
export function createActivities(deps: ActivityDependencies): AssayActivities {
  const webhooks = deps.webhooks ? createWebhookActivities(deps.webhooks) : NO_WEBHOOKS;
  const usage = deps.usage ? createUsageActivities(deps.usage) : NO_USAGE_RECORDS;
  const summaries = createSummarizeActivities(deps.summarizer);
  const completion = createTaskCompletionActivities(usage, webhooks);
  return {
    ...summaries,
    ...createAssessmentCheckActivities(),
    ...webhooks,
    ...usage,
    ...completion,
    ...createExtractiveTaskActivities(summaries, completion),
    ...createContextWindowActivities(),
    ...(deps.batches ? createBatchActivities(deps.batches) : {}),
  };
}

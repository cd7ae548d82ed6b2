import type { TaskCompletionActivities, UsageActivities, WebhookSubscriberActivities } from '../../src/contract';

/**
 * recordTaskUsage and hasWebhookSubscribers as one local activity: a task's last workflow task then
 * waits for one local activity instead of two (docs/benchmarks.md). A failed lookup leaves
 * `subscribed` out, and the workflow asks hasWebhookSubscribers itself, with its own retries.
 */
export function createTaskCompletionActivities(usage: UsageActivities, webhooks: WebhookSubscriberActivities): TaskCompletionActivities {
  return {
    async recordTaskUsageAndCheckSubscribers(record, query) {
      const recorded = await usage.recordTaskUsage(record);
      const subscribed = await webhooks.hasWebhookSubscribers(query).catch(() => undefined);
      return subscribed === undefined ? recorded : { ...recorded, subscribed };
    },
  };
}

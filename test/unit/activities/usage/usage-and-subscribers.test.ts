import { createTaskCompletionActivities } from '../../../../activities/usage/usage-and-subscribers';
import type { TaskUsageRecord, WebhookSubscriberQuery } from '../../../../src/contract';

const RECORD: TaskUsageRecord = {
  organizationId: 'acme',
  taskId: 'task_1',
  usage: { model: 'extractive', provider_calls: 0, input_characters: 120, output_characters: 40 },
};
const QUERY: WebhookSubscriberQuery = { organizationId: 'acme', type: 'ai_task.completed' };

describe('recordTaskUsageAndCheckSubscribers', () => {
  it('records the usage, then answers with its cost and whether the event has subscribers', async () => {
    const calls: string[] = [];
    const { recordTaskUsageAndCheckSubscribers } = createTaskCompletionActivities(
      { recordTaskUsage: async (record) => (calls.push(`record ${record.taskId}`), { cost: 0.25 }) },
      { hasWebhookSubscribers: async (query) => (calls.push(`lookup ${query.organizationId} ${query.type}`), true) },
    );
    await expect(recordTaskUsageAndCheckSubscribers(RECORD, QUERY)).resolves.toEqual({ cost: 0.25, subscribed: true });
    expect(calls).toEqual(['record task_1', 'lookup acme ai_task.completed']);
  });

  it('leaves subscribed out when the lookup fails, so the workflow asks again itself', async () => {
    const { recordTaskUsageAndCheckSubscribers } = createTaskCompletionActivities(
      { recordTaskUsage: async () => ({ cost: null }) },
      {
        hasWebhookSubscribers: async () => {
          throw new Error('database unavailable');
        },
      },
    );
    await expect(recordTaskUsageAndCheckSubscribers(RECORD, QUERY)).resolves.toEqual({ cost: null });
  });

  it('fails as the usage record fails, so the local activity retries it', async () => {
    const lookups: WebhookSubscriberQuery[] = [];
    const { recordTaskUsageAndCheckSubscribers } = createTaskCompletionActivities(
      {
        recordTaskUsage: async () => {
          throw new Error('database unavailable');
        },
      },
      { hasWebhookSubscribers: async (query) => (lookups.push(query), false) },
    );
    await expect(recordTaskUsageAndCheckSubscribers(RECORD, QUERY)).rejects.toThrow('database unavailable');
    expect(lookups).toEqual([]);
  });
});

import { createExtractiveTaskActivities } from '../../../../activities/summarize/extractive-task';
import type { UsageRecordBeforeOutput, WebhookSubscriberQuery } from '../../../../src/contract';

const RECORD: UsageRecordBeforeOutput = { organizationId: 'acme', taskId: 'task_1', usage: { model: 'extractive', provider_calls: 0, input_characters: 120 } };
const QUERY: WebhookSubscriberQuery = { organizationId: 'acme', type: 'ai_task.completed' };
const summaries = { summarizeExtractive: async () => 'The summary.' };

describe('summarizeExtractiveAndRecordUsage', () => {
  it('summarises, then records the usage with the summary\'s length and answers with the record', async () => {
    const records: unknown[] = [];
    const { summarizeExtractiveAndRecordUsage } = createExtractiveTaskActivities(summaries, {
      recordTaskUsageAndCheckSubscribers: async (record, query) => (records.push({ record, query }), { cost: null, subscribed: true }),
    });
    await expect(summarizeExtractiveAndRecordUsage({ text: 'x'.repeat(120) }, RECORD, QUERY)).resolves.toEqual({
      summary: 'The summary.',
      recorded: { cost: null, subscribed: true },
    });
    expect(records).toEqual([{ record: { ...RECORD, usage: { ...RECORD.usage, output_characters: 'The summary.'.length } }, query: QUERY }]);
  });

  it('still answers with the summary when the record fails, so the workflow records it with the record\'s retries', async () => {
    const { summarizeExtractiveAndRecordUsage } = createExtractiveTaskActivities(summaries, {
      recordTaskUsageAndCheckSubscribers: async () => {
        throw new Error('database unavailable');
      },
    });
    await expect(summarizeExtractiveAndRecordUsage({ text: 'text' }, RECORD, QUERY)).resolves.toEqual({ summary: 'The summary.' });
  });

  it('fails as the summary fails, recording nothing', async () => {
    const records: unknown[] = [];
    const { summarizeExtractiveAndRecordUsage } = createExtractiveTaskActivities(
      {
        summarizeExtractive: async () => {
          throw new Error('input rejected');
        },
      },
      { recordTaskUsageAndCheckSubscribers: async (record) => (records.push(record), { cost: null }) },
    );
    await expect(summarizeExtractiveAndRecordUsage({ text: ' ' }, RECORD, QUERY)).rejects.toThrow('input rejected');
    expect(records).toEqual([]);
  });
});

import type { ExtractiveTaskActivities, SummarizeActivities, TaskCompletionActivities } from '../../src/contract';

/**
 * summarizeExtractive and recordTaskUsageAndCheckSubscribers as one local activity: a task on the
 * built-in model then waits for one local activity instead of two (docs/benchmarks.md). The
 * summary fails as summarizeExtractive does, so it is retried as that one is. The record is tried
 * once: when it fails, the summary still returns, and the workflow records the usage itself with
 * the record's own retries.
 */
export function createExtractiveTaskActivities(
  summaries: Pick<SummarizeActivities, 'summarizeExtractive'>,
  completion: TaskCompletionActivities,
): ExtractiveTaskActivities {
  return {
    async summarizeExtractiveAndRecordUsage(input, record, query) {
      const summary = await summaries.summarizeExtractive(input);
      const usage = { ...record.usage, output_characters: summary.length };
      const recorded = await completion.recordTaskUsageAndCheckSubscribers({ ...record, usage }, query).catch(() => undefined);
      return recorded === undefined ? { summary } : { summary, recorded };
    },
  };
}

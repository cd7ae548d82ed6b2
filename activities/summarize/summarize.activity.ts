import { Context } from '@temporalio/activity';
import type { SummarizeActivities, SummarizeInput } from '../../src/contract';
import { ExtractiveProvider } from './extractive-provider';
import type { SummarizationProvider } from './provider';
import { providerFailure } from './provider-failure';

const HEARTBEAT_INTERVAL_MS = 5_000;

const extractive = new ExtractiveProvider();

export function createSummarizeActivities(provider: SummarizationProvider): SummarizeActivities {
  return {
    async summarize(input: SummarizeInput): Promise<string> {
      const context = Context.current();
      // Heartbeats let the server notice a dead worker long before the start-to-close timeout.
      const heartbeat = setInterval(() => context.heartbeat(), HEARTBEAT_INTERVAL_MS);
      try {
        return await summarizeWith(provider, input);
      } finally {
        clearInterval(heartbeat);
      }
    },

    async summarizeInProcess(input: SummarizeInput): Promise<string | null> {
      return provider.inProcess ? summarizeWith(provider, input) : null;
    },

    async summarizeExtractive(input: SummarizeInput): Promise<string> {
      return summarizeWith(extractive, input);
    },
  };
}

async function summarizeWith(provider: SummarizationProvider, input: SummarizeInput): Promise<string> {
  try {
    return await provider.summarize(input.text, { maxSentences: input.max_sentences, signal: Context.current().cancellationSignal });
  } catch (error) {
    throw providerFailure(error);
  }
}

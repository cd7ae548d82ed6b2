import { ApplicationFailure, Context } from '@temporalio/activity';
import type { ActivityTaskErrorCode, SummarizeInput } from '../../src/contract';
import { ProviderRejectedError, ProviderUnavailableError, type SummarizationProvider } from './provider';

const HEARTBEAT_INTERVAL_MS = 5_000;

export interface SummarizeActivities {
  summarize(input: SummarizeInput): Promise<string>;
  /** Run as a local activity: the summary when the provider computes in process, else null (use `summarize`). */
  summarizeInProcess(input: SummarizeInput): Promise<string | null>;
}

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
  };
}

async function summarizeWith(provider: SummarizationProvider, input: SummarizeInput): Promise<string> {
  try {
    return await provider.summarize(input.text, { maxSentences: input.max_sentences, signal: Context.current().cancellationSignal });
  } catch (error) {
    throw toFailure(error);
  }
}

function toFailure(error: unknown): unknown {
  if (error instanceof ProviderRejectedError) {
    return ApplicationFailure.nonRetryable(error.message, 'INPUT_REJECTED' satisfies ActivityTaskErrorCode);
  }
  if (error instanceof ProviderUnavailableError) {
    return ApplicationFailure.retryable(error.message, 'PROVIDER_UNAVAILABLE' satisfies ActivityTaskErrorCode);
  }
  return error;
}

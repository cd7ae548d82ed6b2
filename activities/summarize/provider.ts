export interface SummarizeOptions {
  maxSentences?: number;
  signal?: AbortSignal;
}

/** A way of turning text into a summary; the activity picks one from configuration. */
export interface SummarizationProvider {
  readonly name: string;
  /**
   * Computes in this process, in time bounded by the text's size limit (no network): such a
   * provider runs inside the task's workflow task, as a local activity.
   */
  readonly inProcess: boolean;
  summarize(text: string, options: SummarizeOptions): Promise<string>;
}

/** The provider refused this input (its 4xx): retrying cannot help. */
export class ProviderRejectedError extends Error {}

/** The provider refused the input as longer than the model's context window: the same text in smaller parts may pass. */
export class ProviderContextExceededError extends ProviderRejectedError {
  constructor(
    message: string,
    /** The window the provider said the model has, when it said it. */
    readonly contextTokens?: number,
  ) {
    super(message);
  }
}

/** The provider is overloaded, down or slow (429, 5xx, timeouts): worth retrying later, after `retryAfterMs` when it said so. */
export class ProviderUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

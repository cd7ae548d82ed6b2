import type { ModelCallKind, ModelCallResult } from '../../src/contract';
import { contextLengthExceeded } from './context-length-error';
import { retryAfterMs } from './retry-after';
import { ProviderContextExceededError, ProviderRejectedError, ProviderUnavailableError, type SummarizationProvider, type SummarizeOptions } from './provider';

export interface OpenAiCompatibleSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

export interface CompletionRequest {
  kind: ModelCallKind;
  text: string;
  maxSentences?: number;
  /** Sent as max_tokens; absent, the provider's own limit applies. */
  maxOutputTokens?: number;
  signal?: AbortSignal;
}

interface ChatCompletion {
  choices?: Array<{ message?: { content?: string | null } }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

const INSTRUCTIONS: Record<ModelCallKind, (length: string) => string> = {
  chunk: (length) => `Summarise the user's text ${length}. Answer with the summary only.`,
  combine: (length) =>
    `The user's text is the summaries of consecutive parts of one document. Combine them into one summary of the whole document ${length}. Answer with the summary only.`,
};

/** Any `/v1/chat/completions` endpoint (OpenAI, vLLM, llama.cpp server, Ollama…). */
export class OpenAiCompatibleProvider implements SummarizationProvider {
  readonly name = 'openai-compatible';
  readonly inProcess = false;

  constructor(private readonly settings: OpenAiCompatibleSettings) {}

  async summarize(text: string, options: SummarizeOptions): Promise<string> {
    return (await this.complete({ kind: 'chunk', text, maxSentences: options.maxSentences, signal: options.signal })).summary;
  }

  /** One chat completion: the summary and the tokens the provider reports. */
  async complete(request: CompletionRequest): Promise<ModelCallResult> {
    const response = await this.post(this.requestBody(request), request.signal);
    if (response.status === 429 || response.status >= 500) {
      await response.body?.cancel();
      throw new ProviderUnavailableError(`summarisation provider answered HTTP ${response.status}`, retryAfterMs(response.headers.get('retry-after')));
    }
    if (response.status >= 400) throw rejection(response.status, await response.text().catch(() => ''));
    const completion = (await response.json().catch(() => undefined)) as ChatCompletion | undefined;
    const summary = completion?.choices?.[0]?.message?.content?.trim();
    if (!summary) throw new ProviderUnavailableError('summarisation provider returned no summary');
    const usage = completion?.usage;
    return typeof usage?.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number'
      ? { summary, usage: { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens } }
      : { summary };
  }

  private requestBody(request: CompletionRequest): string {
    const length = request.maxSentences ? `in at most ${request.maxSentences} sentences` : 'in a few sentences';
    return JSON.stringify({
      model: this.settings.model,
      temperature: 0,
      ...(request.maxOutputTokens !== undefined ? { max_tokens: request.maxOutputTokens } : {}),
      messages: [
        { role: 'system', content: INSTRUCTIONS[request.kind](length) },
        { role: 'user', content: request.text },
      ],
    });
  }

  private async post(body: string, signal: AbortSignal | undefined): Promise<Response> {
    const timeout = AbortSignal.timeout(this.settings.timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    const url = new URL('chat/completions', withTrailingSlash(this.settings.baseUrl));
    try {
      return await fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'error',
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ProviderUnavailableError(`summarisation provider unreachable: ${(error as Error).message}`);
    }
  }
}

/** A 4xx as the error it is: the text too long for the model's context (which smaller parts may pass), or any other refusal. */
function rejection(status: number, body: string): ProviderRejectedError {
  const exceeded = contextLengthExceeded(body);
  if (!exceeded) return new ProviderRejectedError(`summarisation provider rejected the input (HTTP ${status})`);
  const stated = exceeded.contextTokens === undefined ? '' : `, which it says is ${exceeded.contextTokens} tokens`;
  return new ProviderContextExceededError(`summarisation provider rejected the input as longer than the model's context window${stated} (HTTP ${status})`, exceeded.contextTokens);
}

function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

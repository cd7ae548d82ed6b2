import { ProviderRejectedError, ProviderUnavailableError, type SummarizationProvider, type SummarizeOptions } from './provider';

export interface OpenAiCompatibleSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

interface ChatCompletion {
  choices?: Array<{ message?: { content?: string | null } }>;
}

/** Any `/v1/chat/completions` endpoint (OpenAI, vLLM, llama.cpp server, Ollama…). */
export class OpenAiCompatibleProvider implements SummarizationProvider {
  readonly name = 'openai-compatible';
  readonly inProcess = false;

  constructor(private readonly settings: OpenAiCompatibleSettings) {}

  async summarize(text: string, options: SummarizeOptions): Promise<string> {
    const response = await this.post(this.requestBody(text, options.maxSentences), options.signal);
    if (response.status === 429 || response.status >= 500) {
      throw new ProviderUnavailableError(`summarisation provider answered HTTP ${response.status}`);
    }
    if (response.status >= 400) {
      throw new ProviderRejectedError(`summarisation provider rejected the input (HTTP ${response.status})`);
    }
    const completion = (await response.json().catch(() => undefined)) as ChatCompletion | undefined;
    const summary = completion?.choices?.[0]?.message?.content?.trim();
    if (!summary) throw new ProviderUnavailableError('summarisation provider returned no summary');
    return summary;
  }

  private requestBody(text: string, maxSentences: number | undefined): string {
    const length = maxSentences ? `in at most ${maxSentences} sentences` : 'in a few sentences';
    return JSON.stringify({
      model: this.settings.model,
      temperature: 0,
      messages: [
        { role: 'system', content: `Summarise the user's text ${length}. Answer with the summary only.` },
        { role: 'user', content: text },
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

function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

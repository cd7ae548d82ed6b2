import type { AppConfig } from '../../src/common/config/app-config';
import { ExtractiveProvider } from './extractive-provider';
import { OpenAiCompatibleProvider } from './openai-compatible-provider';
import type { SummarizationProvider } from './provider';

export function createSummarizationProvider(config: AppConfig): SummarizationProvider {
  const values = config.values;
  if (values.SUMMARIZER_PROVIDER === 'openai-compatible') {
    return new OpenAiCompatibleProvider({
      baseUrl: values.OPENAI_BASE_URL as string,
      apiKey: values.OPENAI_API_KEY,
      model: values.OPENAI_MODEL,
      timeoutMs: values.OPENAI_TIMEOUT_MS,
    });
  }
  return new ExtractiveProvider();
}

import type { AppConfig } from '../../src/common/config/app-config';
import type { RemoteModel } from '../../src/common/config/model-catalog';
import { ExtractiveProvider } from './extractive-provider';
import { OpenAiCompatibleProvider } from './openai-compatible-provider';
import type { SummarizationProvider } from './provider';

/** The worker's default summariser, for tasks created before models were configurable (they name none). */
export function createSummarizationProvider(config: AppConfig): SummarizationProvider {
  const model = config.models.remote(config.models.defaultName);
  return model ? providerFor(model) : new ExtractiveProvider();
}

export function providerFor(model: RemoteModel): OpenAiCompatibleProvider {
  return new OpenAiCompatibleProvider({ baseUrl: model.baseUrl, apiKey: model.apiKey, model: model.providerModel, timeoutMs: model.timeoutMs });
}

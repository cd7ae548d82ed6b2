import { ApplicationFailure, Context } from '@temporalio/activity';
import type { ModelCatalog } from '../../src/common/config/model-catalog';
import type { KeyEnvironment } from '../../src/common/keys/api-key';
import type { ActivityTaskErrorCode, ModelActivities, ModelCallInput, ModelCallResult } from '../../src/contract';
import { providerFor } from './create-provider';
import type { OpenAiCompatibleProvider } from './openai-compatible-provider';
import { modelCallFailure } from './provider-failure';
import type { ProviderSlots } from './provider-slots';

const HEARTBEAT_INTERVAL_MS = 5_000;

export interface ModelActivityDependencies {
  models: ModelCatalog;
  slots: ProviderSlots;
  environmentOf: (namespace: string) => KeyEnvironment;
}

/** The activity of each remote model's task queue: one call, inside the model's deployment-wide limits. */
export function createModelActivities({ models, slots, environmentOf }: ModelActivityDependencies): ModelActivities {
  const providers = new Map<string, OpenAiCompatibleProvider>(models.remoteModels.map((model) => [model.name, providerFor(model)]));
  return {
    async callModel(input: ModelCallInput): Promise<ModelCallResult> {
      const model = models.remote(input.model);
      const provider = providers.get(input.model);
      if (!model || !provider) {
        // Another worker of the deployment may still have it: the task waits, as for a provider that is down.
        throw ApplicationFailure.retryable(`model ${input.model} is not configured on this worker`, 'PROVIDER_UNAVAILABLE' satisfies ActivityTaskErrorCode);
      }
      const context = Context.current();
      // Heartbeats let the server notice a dead worker long before the start-to-close timeout, also while the call waits for a slot.
      const heartbeat = setInterval(() => context.heartbeat(), HEARTBEAT_INTERVAL_MS);
      try {
        const slot = await slots.acquire(model, environmentOf(context.info.namespace), context.cancellationSignal);
        try {
          return await provider.complete({
            kind: input.kind,
            text: input.text,
            maxSentences: input.max_sentences,
            maxOutputTokens: input.maxOutputTokens,
            signal: AbortSignal.any([context.cancellationSignal, slot.signal]),
          });
        } finally {
          await slot.release();
        }
      } catch (error) {
        throw modelCallFailure(error);
      } finally {
        clearInterval(heartbeat);
      }
    },
  };
}

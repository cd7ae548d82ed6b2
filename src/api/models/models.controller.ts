import { Controller } from '@nestjs/common';
import { AppConfig } from '../../common/config/app-config';
import { ApiRoute } from '../platform/http/api-route';
import type { Model } from '../../contract/wire/model';
import { MODEL_ROUTES } from './model.routes';

@Controller()
export class ModelsController {
  constructor(private readonly config: AppConfig) {}

  @ApiRoute(MODEL_ROUTES.list)
  list(): { data: Model[] } {
    const { models } = this.config;
    const data = models.names.map((name): Model => {
      const remote = models.remote(name);
      const listed: Model = { name, provider: remote ? 'openai-compatible' : 'built-in', default: name === models.defaultName };
      if (!remote) return listed;
      listed.context_tokens = remote.contextTokens;
      if (remote.pricePer1kInputTokens !== undefined) listed.price_per_1k_input_tokens = remote.pricePer1kInputTokens;
      if (remote.pricePer1kOutputTokens !== undefined) listed.price_per_1k_output_tokens = remote.pricePer1kOutputTokens;
      return listed;
    });
    return { data };
  }
}

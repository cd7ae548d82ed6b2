import type { ApiOperation } from '../platform/openapi/api-operation';
import { modelListSchema } from '../../contract/wire';

/** The models routes: ModelsController serves them, the OpenAPI document describes them. */
export const MODEL_ROUTES = {
  list: {
    method: 'get',
    path: '/v1/models',
    operationId: 'listModels',
    tag: 'AI tasks',
    summary: 'List the models',
    description: 'The models a task may name in `model`, the default first among them marked. Declared by the operator; the built-in `extractive` model is always offered.',
    responses: [
      {
        status: 200,
        description: 'Every model.',
        body: { name: 'ModelList', schema: modelListSchema },
        example: {
          data: [
            { name: 'extractive', provider: 'built-in', default: true },
            { name: 'smollm2', provider: 'openai-compatible', default: false, context_tokens: 2048 },
          ],
        },
      },
    ],
    errors: [],
  },
} satisfies Record<string, ApiOperation>;

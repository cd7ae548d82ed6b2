import { z } from 'zod';
import { MODEL_PROVIDERS } from './values';

/** A model a task may name, as GET /v1/models lists it. */
export const modelResourceSchema = z.object({
  name: z.string().meta({ description: 'What a create sends as `model`.', example: 'smollm2' }),
  provider: z.enum(MODEL_PROVIDERS).meta({ description: '`built-in`: the in-process extractive summariser; `openai-compatible`: a model server the operator declared.' }),
  default: z.boolean().meta({ description: 'Whether a create that names no model runs on it.' }),
  context_tokens: z.number().int().optional().meta({ description: "The model's context window; a longer text is summarised in steps (`progress` on the task)." }),
  price_per_1k_input_tokens: z.number().optional(),
  price_per_1k_output_tokens: z.number().optional(),
});

export const modelListSchema = z.object({ data: z.array(modelResourceSchema) });

/** A model a task may name (GET /v1/models). */
export type Model = z.output<typeof modelResourceSchema>;

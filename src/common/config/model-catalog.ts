import { z } from 'zod';
import { EXTRACTIVE_MODEL, MIN_CONTEXT_TOKENS, MODEL_NAME_PATTERN, largestOutputTokens, type TaskModel } from '../../contract';
import { durationBetween } from './durations';

const DEFAULT_OUTPUT_TOKENS = 256;
// A provider that has been down this long is reported to the task's client rather than waited for.
const DEFAULT_UNAVAILABLE_WAIT_MS = 60 * 60 * 1000;
// What OPENAI_* (before ASSAY_MODELS) declares: a context that a hosted model takes and a small one
// survives, and the concurrency such deployments had (one worker's default activity slots).
const LEGACY_CONTEXT_TOKENS = 8192;
const LEGACY_CONCURRENCY = 100;

/** A remote model as the worker calls it and the API offers it. */
export interface RemoteModel {
  name: string;
  provider: 'openai-compatible';
  baseUrl: string;
  /** The provider's id of the model (sent as `model`). */
  providerModel: string;
  apiKey?: string;
  contextTokens: number;
  maxOutputTokens: number;
  /** Calls in flight at once over every worker of the deployment, both environments together. */
  concurrency: number;
  /** How many of those the sandbox may hold, so production always finds the rest free. */
  sandboxConcurrency: number;
  /** Calls started per minute over every worker; unlimited when absent. */
  requestsPerMinute?: number;
  timeoutMs: number;
  unavailableWaitMs: number;
  pricePer1kInputTokens?: number;
  pricePer1kOutputTokens?: number;
}

const modelDeclaration = z
  .object({
    name: z
      .string()
      .regex(new RegExp(MODEL_NAME_PATTERN), 'must be 1-128 letters, digits or . _ : / -, starting with a letter or digit')
      .refine((name) => name !== EXTRACTIVE_MODEL, `"${EXTRACTIVE_MODEL}" is the built-in model`),
    provider: z.literal('openai-compatible').default('openai-compatible'),
    base_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, such as http://127.0.0.1:8081/v1' }),
    model: z.string().min(1).optional(),
    api_key_env: z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'must name an environment variable').optional(),
    context_tokens: z.number().int().min(MIN_CONTEXT_TOKENS).max(10_000_000).default(4096),
    max_output_tokens: z.number().int().min(16).optional(),
    concurrency: z.number().int().min(1).max(1000).default(4),
    sandbox_concurrency: z.number().int().min(1).max(1000).optional(),
    requests_per_minute: z.number().positive().max(1_000_000).optional(),
    timeout_ms: z.number().int().min(1000).max(600_000).default(120_000),
    unavailable_wait: durationBetween(0, 7 * 24 * 3600_000, '0s and 7 days').optional(),
    price_per_1k_input_tokens: z.number().nonnegative().optional(),
    price_per_1k_output_tokens: z.number().nonnegative().optional(),
  })
  .strict();

type ModelDeclaration = z.output<typeof modelDeclaration>;

export interface ModelSettingsSource {
  ASSAY_MODELS?: string;
  ASSAY_DEFAULT_MODEL?: string;
  SUMMARIZER_PROVIDER: 'extractive' | 'openai-compatible';
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  OPENAI_MODEL: string;
  OPENAI_TIMEOUT_MS: number;
}

/**
 * The models an operator declared (ASSAY_MODELS, plus the one OPENAI_* declares) and the default a
 * task without `model` runs on. The built-in extractive model is always there.
 */
export class ModelCatalog {
  private readonly byName: ReadonlyMap<string, RemoteModel>;

  private constructor(
    models: RemoteModel[],
    readonly defaultName: string,
  ) {
    this.byName = new Map(models.map((model) => [model.name, model]));
  }

  /** Throws one message per problem, each naming the setting. */
  static fromSettings(values: ModelSettingsSource, env: NodeJS.ProcessEnv): ModelCatalog {
    const problems: string[] = [];
    const models = values.ASSAY_MODELS ? parseDeclarations(values.ASSAY_MODELS, env, problems) : [];
    const legacy = legacyModel(values);
    if (legacy) {
      if (models.some((model) => model.name === legacy.name)) problems.push(`ASSAY_MODELS: declares "${legacy.name}", which OPENAI_MODEL declares too`);
      models.push(legacy);
    }
    const defaultName = values.ASSAY_DEFAULT_MODEL ?? legacy?.name ?? EXTRACTIVE_MODEL;
    if (defaultName !== EXTRACTIVE_MODEL && !models.some((model) => model.name === defaultName)) {
      problems.push(`ASSAY_DEFAULT_MODEL: "${defaultName}" is not declared in ASSAY_MODELS`);
    }
    if (problems.length > 0) throw new Error(problems.join('\n'));
    return new ModelCatalog(models, defaultName);
  }

  /** Every model a task may name, the built-in first. */
  get names(): string[] {
    return [EXTRACTIVE_MODEL, ...this.byName.keys()];
  }

  get remoteModels(): RemoteModel[] {
    return [...this.byName.values()];
  }

  remote(name: string): RemoteModel | undefined {
    return this.byName.get(name);
  }

  /** What a new task's workflow is given of its model (the default when the request names none), or undefined for an unknown name. */
  taskModel(name: string = this.defaultName): TaskModel | undefined {
    if (name === EXTRACTIVE_MODEL) return { name, kind: 'extractive' };
    const model = this.byName.get(name);
    if (!model) return undefined;
    return {
      name,
      kind: 'remote',
      contextTokens: model.contextTokens,
      maxOutputTokens: model.maxOutputTokens,
      concurrency: model.concurrency,
      unavailableWaitMs: model.unavailableWaitMs,
    };
  }
}

function parseDeclarations(json: string, env: NodeJS.ProcessEnv, problems: string[]): RemoteModel[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    problems.push('ASSAY_MODELS: is not JSON (a list of model objects: [{"name":"…","base_url":"…"}])');
    return [];
  }
  if (!Array.isArray(parsed)) {
    problems.push('ASSAY_MODELS: must be a JSON list of model objects');
    return [];
  }
  const models: RemoteModel[] = [];
  parsed.forEach((entry, index) => {
    const result = modelDeclaration.safeParse(entry);
    if (!result.success) {
      for (const issue of result.error.issues) problems.push(`ASSAY_MODELS[${index}].${issue.path.join('.') || '(entry)'}: ${issue.message}`);
      return;
    }
    const model = toRemoteModel(result.data, env, `ASSAY_MODELS[${index}]`, problems);
    if (!model) return;
    if (models.some((other) => other.name === model.name)) problems.push(`ASSAY_MODELS[${index}].name: "${model.name}" is declared twice`);
    else models.push(model);
  });
  return models;
}

function toRemoteModel(declared: ModelDeclaration, env: NodeJS.ProcessEnv, where: string, problems: string[]): RemoteModel | undefined {
  if (declared.sandbox_concurrency !== undefined && declared.sandbox_concurrency > declared.concurrency) {
    problems.push(`${where}.sandbox_concurrency: at most concurrency (${declared.concurrency})`);
    return undefined;
  }
  const largest = largestOutputTokens(declared.context_tokens);
  const maxOutputTokens = declared.max_output_tokens ?? Math.min(DEFAULT_OUTPUT_TOKENS, largest);
  if (maxOutputTokens > largest) {
    problems.push(`${where}.max_output_tokens: at most ${largest} for a context of ${declared.context_tokens} tokens`);
    return undefined;
  }
  let apiKey: string | undefined;
  if (declared.api_key_env !== undefined) {
    apiKey = env[declared.api_key_env];
    if (!apiKey) {
      problems.push(`${where}.api_key_env: ${declared.api_key_env} is not set`);
      return undefined;
    }
  }
  return {
    name: declared.name,
    provider: declared.provider,
    baseUrl: declared.base_url,
    providerModel: declared.model ?? declared.name,
    apiKey,
    contextTokens: declared.context_tokens,
    maxOutputTokens,
    concurrency: declared.concurrency,
    sandboxConcurrency: declared.sandbox_concurrency ?? declared.concurrency,
    requestsPerMinute: declared.requests_per_minute,
    timeoutMs: declared.timeout_ms,
    unavailableWaitMs: declared.unavailable_wait ?? DEFAULT_UNAVAILABLE_WAIT_MS,
    pricePer1kInputTokens: declared.price_per_1k_input_tokens,
    pricePer1kOutputTokens: declared.price_per_1k_output_tokens,
  };
}

/** SUMMARIZER_PROVIDER=openai-compatible with OPENAI_*, as deployments before ASSAY_MODELS set it: one model, the default. */
function legacyModel(values: ModelSettingsSource): RemoteModel | undefined {
  if (values.SUMMARIZER_PROVIDER !== 'openai-compatible' || !values.OPENAI_BASE_URL) return undefined;
  return {
    name: values.OPENAI_MODEL,
    provider: 'openai-compatible',
    baseUrl: values.OPENAI_BASE_URL,
    providerModel: values.OPENAI_MODEL,
    apiKey: values.OPENAI_API_KEY,
    contextTokens: LEGACY_CONTEXT_TOKENS,
    maxOutputTokens: DEFAULT_OUTPUT_TOKENS,
    concurrency: LEGACY_CONCURRENCY,
    sandboxConcurrency: LEGACY_CONCURRENCY,
    timeoutMs: values.OPENAI_TIMEOUT_MS,
    unavailableWaitMs: DEFAULT_UNAVAILABLE_WAIT_MS,
  };
}

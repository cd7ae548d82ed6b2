import * as path from 'node:path';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();

/** Every setting Assay reads from the environment, validated once at start. */
export const configSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  TEMPORAL_ADDRESS: z.string().min(1).default('localhost:7233'),
  TEMPORAL_NAMESPACE_SANDBOX: z.string().min(1).default('assay-sandbox'),
  TEMPORAL_NAMESPACE_PRODUCTION: z.string().min(1).default('assay-production'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('assay'),
  TEMPORAL_UI_PORT: port.default(8233),
  TEMPORAL_CLI_PATH: z.string().optional(),
  TEMPORAL_RPC_TIMEOUT_MS: positiveInt.default(5000),
  DATA_DIR: z.string().min(1).default('.data'),
  API_KEY_BRAND: z
    .string()
    .regex(/^[a-z][a-z0-9]{1,15}$/, 'must be 2-16 lowercase letters or digits, starting with a letter')
    .default('assay'),
  KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(5000).default(2000),
  MAX_TEXT_BYTES: positiveInt.max(1_500_000, 'must stay well under the Temporal payload limit (2 MB)').default(512 * 1024),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SUMMARIZER_PROVIDER: z.enum(['extractive', 'openai-compatible']).default('extractive'),
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_MODEL: z.string().default('gpt-4o-mini'),
  OPENAI_TIMEOUT_MS: positiveInt.default(60_000),
});

export type ConfigValues = z.infer<typeof configSchema>;

export class InvalidConfigError extends Error {}

/** Typed, validated configuration; the only place that reads process.env. */
export class AppConfig {
  readonly values: Readonly<ConfigValues>;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    const parsed = configSchema.safeParse(env);
    if (!parsed.success) {
      const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
      throw new InvalidConfigError(`Invalid configuration:\n${lines.join('\n')}`);
    }
    const values = parsed.data;
    if (values.SUMMARIZER_PROVIDER === 'openai-compatible' && !values.OPENAI_BASE_URL) {
      throw new InvalidConfigError('Invalid configuration:\n  OPENAI_BASE_URL: required when SUMMARIZER_PROVIDER=openai-compatible');
    }
    this.values = Object.freeze(values);
  }

  get dataDir(): string {
    return path.resolve(this.values.DATA_DIR);
  }

  get keyDatabasePath(): string {
    return path.join(this.dataDir, 'keys.sqlite');
  }
}

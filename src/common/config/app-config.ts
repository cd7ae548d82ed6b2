import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { DEFAULT_TASK_QUEUE } from '../../contract';
import { parseEncryptionKeys } from '../crypto/encryption-keys';
import { StaticKeyRing, type KeyRing } from '../crypto/key-ring';
import { temporalConnectionsFromEnv, type TemporalConnections } from '../temporal/connection-options';
import { durationBetween, slaDuration } from './durations';
import { fairnessWeights } from './fairness-weights';
import { ModelCatalog } from './model-catalog';
import { parseReviewPipelines, type ReviewPipelines } from './review-pipelines';
import { workerEnvironments } from './worker-environments';
import { tracingSettingsFromEnv, type TracingSettings } from '../tracing/tracing-settings';
import { trustProxy } from './trust-proxy';

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const DAY_MS = 24 * 60 * 60 * 1000;

// Temporal refuses a namespace retention under a day.
const retentionDuration = durationBetween(DAY_MS, 10 * 365 * DAY_MS, '1 day and 3650 days');

/** Every setting Assay reads from the environment, validated once at start. */
export const configSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  // Also where `npm start` runs its dev server. Connections read it with the other TEMPORAL_* settings (temporalConnections).
  TEMPORAL_ADDRESS: z.string().min(1).default('localhost:7233'),
  TEMPORAL_NAMESPACE_SANDBOX: z.string().min(1).default('assay-sandbox'),
  TEMPORAL_NAMESPACE_PRODUCTION: z.string().min(1).default('assay-production'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default(DEFAULT_TASK_QUEUE),
  TEMPORAL_UI_PORT: port.default(8233),
  TEMPORAL_CLI_PATH: z.string().optional(),
  TEMPORAL_RPC_TIMEOUT_MS: positiveInt.default(5000),
  // How long a claim, release or complete waits for a worker to accept or refuse it (then 503, outcome unknown).
  REVIEW_UPDATE_TIMEOUT_MS: positiveInt.max(120_000).default(20_000),
  DATA_DIR: z.string().min(1).default('.data'),
  API_KEY_BRAND: z
    .string()
    .regex(/^[a-z][a-z0-9]{1,15}$/, 'must be 2-16 lowercase letters or digits, starting with a letter')
    .default('assay'),
  KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(5000).default(2000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  RATE_LIMIT_CREATES_PER_MINUTE: positiveInt.default(600),
  RATE_LIMIT_CREATES_BURST: positiveInt.default(20),
  // One organisation's creates in one environment, over all its keys: what keeps a customer with
  // many keys from filling the server's intake ahead of everyone else. The burst is the line a
  // neighbour may find in front of its next task (docs/architecture.md, docs/benchmarks.md).
  RATE_LIMIT_ORGANISATION_CREATES_PER_MINUTE: positiveInt.default(600),
  RATE_LIMIT_ORGANISATION_CREATES_BURST: positiveInt.default(20),
  // Which proxies in front (a TLS-terminating load balancer) the API and the codec endpoint believe
  // about the browser's scheme, host and address (X-Forwarded-Proto, -Host, -For); by default none.
  TRUST_PROXY: z.string().default('false').pipe(trustProxy),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(30_000),
  MAX_TEXT_BYTES: positiveInt.max(1_500_000, 'must stay well under the Temporal payload limit (2 MB)').default(512 * 1024),
  // A batch's body (POST /v1/ai/batches): its items' texts are staged in the database until admitted.
  MAX_BATCH_BYTES: positiveInt.max(256 * 1024 * 1024).default(32 * 1024 * 1024),
  // Requests held open by `Prefer: wait` (a create, a GET): each is one Temporal long poll, which the
  // frontend counts per namespace beside the workers' own polls (frontend.namespaceCount), so one
  // instance and one organisation (per environment) may hold only this many; beyond, the API answers at once.
  PREFER_WAIT_MAX_PER_INSTANCE: z.coerce.number().int().min(0).max(10_000).default(300),
  PREFER_WAIT_MAX_PER_ORGANISATION: z.coerce.number().int().min(0).max(10_000).default(50),
  // Polls an instance answers without holding them, per second, that it paces its clients to
  // (PollPacing): past that, each answer asks its client to wait its share before the next.
  UNHELD_POLLS_PER_SECOND: z.coerce.number().int().min(1).max(100_000).default(50),
  // Past capacity: once work has waited this long for a worker on the shared queue, the busiest
  // organisations' creates are answered 429 (AdmissionGuard); 0 turns admission off.
  ADMISSION_MAX_QUEUE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
  // An organisation alone (nobody else started work in 5 s) is admitted past its create limits
  // while fewer tasks than this run in its environment; 0 keeps the limits a ceiling.
  ADMISSION_ALONE_IN_FLIGHT: z.coerce.number().int().min(0).max(100_000).default(100),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // The worker's Prometheus endpoint (Temporal SDK metrics and assay_tasks_finished_total); port 0 turns it off.
  WORKER_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  WORKER_METRICS_PORT: port.default(9464),
  // How long a stopping worker lets running activities finish before it cancels them and hands them back.
  WORKER_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  // Each environment's worker has slots of its own, so the sandbox can fill only its own. Workflow
  // tasks and local activities (in-process summaries: CPU on the worker's one event loop) run
  // WORKER_SLOTS_* at once, at least 2 (the SDK's floor with a sticky cache); activities (remote
  // summaries, checks, webhook deliveries: mostly waiting on the network) WORKER_ACTIVITY_SLOTS_*.
  // A slot is also held by each open poll, sticky ones included, and while a completion waits on
  // the server: with 8, tasks waited in the server's backlog while the worker's CPU sat mostly idle
  // (docs/benchmarks.md, "The engine gap split").
  WORKER_SLOTS_PRODUCTION: z.coerce.number().int().min(2).max(1000).default(32),
  WORKER_SLOTS_SANDBOX: z.coerce.number().int().min(2).max(1000).default(16),
  WORKER_ACTIVITY_SLOTS_PRODUCTION: z.coerce.number().int().min(1).max(10_000).default(100),
  WORKER_ACTIVITY_SLOTS_SANDBOX: z.coerce.number().int().min(1).max(10_000).default(100),
  // Batch items run on a queue of their own, whose worker (per environment) takes this many workflow
  // tasks and local activities at once: a batch drains at its paced rate with few, and the task
  // queue's slots stay free for single creates.
  WORKER_BATCH_SLOTS: z.coerce.number().int().min(2).max(1000).default(2),
  // Workflows each worker keeps in memory between their workflow tasks (the SDK's sticky cache).
  // Unset, it is sized to the machine (src/worker/sticky-cache-size.ts): assessments stay open for
  // days and one evicted is replayed on its next claim, while the SDK's own default, sized to the
  // heap for any workflow, ran a workflow thread out of heap (docs/benchmarks.md, review path).
  WORKER_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(2).max(100_000).optional(),
  // Which environments this worker process serves, so production can have processes (and CPU) of its own.
  WORKER_ENVIRONMENTS: z.string().default('sandbox,production').pipe(workerEnvironments),
  // "org-a=2,org-b=0.5": an organisation's share of a busy task queue against the default of 1.
  FAIRNESS_WEIGHTS: z.string().default('').pipe(fairnessWeights),
  // The models tasks may name (docs/models.md): a JSON list of declarations, and the one a task
  // without `model` runs on (the built-in "extractive" unless set, or OPENAI_MODEL when
  // SUMMARIZER_PROVIDER=openai-compatible declares it the way deployments before ASSAY_MODELS did).
  ASSAY_MODELS: z.string().optional(),
  ASSAY_DEFAULT_MODEL: z.string().min(1).optional(),
  SUMMARIZER_PROVIDER: z.enum(['extractive', 'openai-compatible']).default('extractive'),
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_MODEL: z.string().default('gpt-4o-mini'),
  OPENAI_TIMEOUT_MS: positiveInt.default(60_000),
  // Read when an assessment is created and fixed in its workflow input, so running reviews keep theirs.
  ASSESSMENT_CLAIM_SLA: z.string().default('2 days').pipe(slaDuration),
  ASSESSMENT_REVIEW_SLA: z.string().default('5 days').pipe(slaDuration),
  // The stages of review per environment (JSON, review-pipelines.ts); read like the SLAs above. Unset: one stage with those SLAs.
  REVIEW_PIPELINES: z.string().optional(),
  // A reviewer sees an assessment once it reaches a stage of one of their groups (or one without a
  // group); `true` shows every reviewer every assessment of their environment, as before groups.
  REVIEWERS_SEE_ALL_STAGES: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
  // Sandbox endpoints may then use http and loopback addresses (tests, local development); live never.
  WEBHOOKS_ALLOW_INSECURE_SANDBOX: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
  // Read by the worker when an event starts and recorded in its history, so running deliveries keep theirs.
  WEBHOOK_RETRY_INITIAL_INTERVAL: z.string().default('5s').pipe(slaDuration),
  WEBHOOK_RETRY_MAX_INTERVAL: z.string().default('10h').pipe(slaDuration),
  WEBHOOK_RETRY_WINDOW: z.string().default('3 days').pipe(slaDuration),
  // How often the worker's schedule looks for runs an operator terminated (or that timed out) to send their event.
  WEBHOOK_SWEEP_INTERVAL: z.string().default('1 minute').pipe(slaDuration),
  // How long a finished task or assessment (with its Idempotency-Key and webhook delivery records) is
  // kept: the namespaces' retention, applied by `npm start` and the cluster setup.
  RETENTION_PERIOD: z.string().default('30 days').pipe(retentionDuration),
  // Keys that encrypt what Temporal stores (payloads) and webhook signing secrets: `id:base64` entries,
  // newest first, inline or in a file (one a line). Neither set: the data directory's encryption-keys
  // file (which `npm start` makes) if there is one, else nothing is encrypted.
  PAYLOAD_ENCRYPTION_KEYS: z.string().optional(),
  PAYLOAD_ENCRYPTION_KEYS_FILE: z.string().min(1).optional(),
  // Without keys, unless this is `off`: the API refuses live requests that would store or return
  // production data, a production worker its activities, both refuse to start once live API keys
  // exist, and `assay keys issue --env live` refuses while the deployment's API said it has none
  // (payload-encryption-check.ts). Configured keys are used either way: what they encrypted must stay readable.
  PAYLOAD_ENCRYPTION: z.enum(['required', 'off']).default('required'),
  // The codec endpoint for the Temporal UI and CLI (src/codec): where it listens, the operator credential
  // it asks for (else the data directory's codec-credential file, which `npm start` makes), and the
  // origins whose pages may call it (default: the embedded UI's).
  CODEC_HOST: z.string().min(1).default('127.0.0.1'),
  CODEC_PORT: port.default(8234),
  CODEC_CREDENTIAL: z.string().min(32, 'must be at least 32 characters').optional(),
  CODEC_ALLOWED_ORIGINS: z.string().optional(),
});

export type ConfigValues = z.infer<typeof configSchema>;

export class InvalidConfigError extends Error {}

/** Typed, validated configuration; the only place that reads process.env. */
export class AppConfig {
  readonly values: Readonly<ConfigValues>;
  readonly models: ModelCatalog;
  /** Each environment's review pipeline, from REVIEW_PIPELINES (default: one stage with the ASSESSMENT_*_SLA deadlines). */
  readonly reviewPipelines: ReviewPipelines;
  private connections?: TemporalConnections;
  private keys?: { ring: KeyRing | undefined };

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {
    const parsed = configSchema.safeParse(env);
    if (!parsed.success) {
      const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
      throw new InvalidConfigError(`Invalid configuration:\n${lines.join('\n')}`);
    }
    const values = parsed.data;
    if (values.PAYLOAD_ENCRYPTION_KEYS !== undefined && values.PAYLOAD_ENCRYPTION_KEYS_FILE !== undefined) {
      throw new InvalidConfigError('Invalid configuration:\n  PAYLOAD_ENCRYPTION_KEYS: set it or PAYLOAD_ENCRYPTION_KEYS_FILE, not both');
    }
    if (values.SUMMARIZER_PROVIDER === 'openai-compatible' && !values.OPENAI_BASE_URL) {
      throw new InvalidConfigError('Invalid configuration:\n  OPENAI_BASE_URL: required when SUMMARIZER_PROVIDER=openai-compatible');
    }
    try {
      this.models = ModelCatalog.fromSettings(values, env);
      this.reviewPipelines = parseReviewPipelines(values.REVIEW_PIPELINES, { claimWithinMs: values.ASSESSMENT_CLAIM_SLA, reviewWithinMs: values.ASSESSMENT_REVIEW_SLA });
    } catch (error) {
      const lines = (error as Error).message.split('\n').map((line) => `  ${line}`);
      throw new InvalidConfigError(`Invalid configuration:\n${lines.join('\n')}`);
    }
    this.values = Object.freeze(values);
  }

  /**
   * How each environment reaches Temporal (address, TLS, mTLS, API key), read and checked on first
   * use: only the processes that talk to Temporal need it, so a broken certificate path does not
   * stop `assay keys`.
   */
  get temporalConnections(): TemporalConnections {
    if (!this.connections) {
      const result = temporalConnectionsFromEnv(this.env);
      if (!result.ok) throw new InvalidConfigError(`Invalid configuration:\n${result.problems.map((line) => `  ${line}`).join('\n')}`);
      this.connections = result.options;
    }
    return this.connections;
  }

  /**
   * The encryption key ring, or undefined when no key is configured; read and checked on first use,
   * like temporalConnections. Problems name the setting and the entry, never a key.
   */
  get keyRing(): KeyRing | undefined {
    if (!this.keys) this.keys = { ring: this.readKeyRing() };
    return this.keys.ring;
  }

  private readKeyRing(): KeyRing | undefined {
    const { PAYLOAD_ENCRYPTION_KEYS: inline, PAYLOAD_ENCRYPTION_KEYS_FILE: file } = this.values;
    let text: string;
    let setting: string;
    if (inline !== undefined) {
      [text, setting] = [inline, 'PAYLOAD_ENCRYPTION_KEYS'];
    } else if (file !== undefined) {
      setting = 'PAYLOAD_ENCRYPTION_KEYS_FILE';
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (error) {
        throw new InvalidConfigError(`Invalid configuration:\n  ${setting}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
      }
    } else if (fs.existsSync(this.localKeyFile)) {
      setting = this.localKeyFile;
      text = fs.readFileSync(this.localKeyFile, 'utf8');
    } else {
      return undefined;
    }
    const parsed = parseEncryptionKeys(text);
    if (!parsed.ok) throw new InvalidConfigError(`Invalid configuration:\n  ${setting}: ${parsed.problem}`);
    return new StaticKeyRing(parsed.keys);
  }

  /** Tracing from the standard OTEL_* variables, or undefined when it is off (the default). */
  get tracing(): TracingSettings | undefined {
    const result = tracingSettingsFromEnv(this.env);
    if (!result.ok) throw new InvalidConfigError(`Invalid configuration:\n  ${result.problem}`);
    return result.settings;
  }

  get dataDir(): string {
    return path.resolve(this.values.DATA_DIR);
  }

  /** The codec endpoint's operator credential, or undefined when none is configured (the endpoint then refuses to start). */
  get codecCredential(): string | undefined {
    if (this.values.CODEC_CREDENTIAL !== undefined) return this.values.CODEC_CREDENTIAL;
    return fs.existsSync(this.localCodecCredentialFile) ? fs.readFileSync(this.localCodecCredentialFile, 'utf8').trim() : undefined;
  }

  /** The credential file `npm start` makes, read when CODEC_CREDENTIAL is not set. */
  get localCodecCredentialFile(): string {
    return path.join(this.dataDir, 'codec-credential');
  }

  /** Origins whose pages may call the codec endpoint: CODEC_ALLOWED_ORIGINS (comma-separated), else the embedded UI's. */
  get codecAllowedOrigins(): string[] {
    const listed = this.values.CODEC_ALLOWED_ORIGINS;
    if (listed !== undefined) return listed.split(',').map((origin) => origin.trim()).filter((origin) => origin !== '');
    const port = this.values.TEMPORAL_UI_PORT;
    return [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  }

  /** The key file `npm start` makes, read when no key is configured. */
  get localKeyFile(): string {
    return path.join(this.dataDir, 'encryption-keys');
  }

  get keyDatabasePath(): string {
    return path.join(this.dataDir, 'keys.sqlite');
  }
}

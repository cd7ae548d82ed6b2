import { AssayArgumentError } from './errors';

/** When and how often to poll. Defaults are the polling guidelines of docs/api.md, Polling. */
export interface PollOptions {
  /** Delay before the first poll after submission (guideline: 1.5 s). */
  firstPollDelayMs: number;
  /** Later polls wait a uniformly random interval in [minIntervalMs, maxIntervalMs] (guideline: 1–2 s). */
  minIntervalMs: number;
  maxIntervalMs: number;
  /** Give up once the next poll would start after this long (guideline: about 60 s). */
  timeoutMs: number;
  /** Give up after this many polls (guideline: at most 30). */
  maxPolls: number;
  /**
   * Each poll asks the service to hold its answer up to this long until the resource changes
   * (`Prefer: wait`), so a poll is answered once per change, not on a timer; 0 sends plain polls.
   * A service that does not hold answers at once, and the schedule above applies as it is.
   */
  waitSeconds: number;
}

/** Retries of a create after a network error, a request timeout, a 5xx or a 429. */
export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retrying off. */
  maxRetries: number;
  /** Backoff before retry n is drawn from [d/2, d] with d = min(maxDelayMs, baseDelayMs * 2^n). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited out; the 429 or 5xx is thrown instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_BASE_URL = 'http://localhost:3000';
export const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

export const DEFAULT_POLL_OPTIONS: Readonly<PollOptions> = {
  firstPollDelayMs: 1_500,
  minIntervalMs: 1_000,
  maxIntervalMs: 2_000,
  timeoutMs: 60_000,
  maxPolls: 30,
  waitSeconds: 20,
};

export const DEFAULT_RETRY_OPTIONS: Readonly<RetryOptions> = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
};

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const MAX_POLLS = 100_000;

/**
 * waitForBatch's schedule: a batch takes minutes and its counts move every few seconds, so poll
 * every 2–5 s for up to an hour. Only the time ceiling binds; a longer timeoutMs needs no maxPolls.
 */
export const DEFAULT_BATCH_POLL_OPTIONS: Readonly<PollOptions> = {
  firstPollDelayMs: 2_000,
  minIntervalMs: 2_000,
  maxIntervalMs: 5_000,
  timeoutMs: 60 * MINUTE,
  maxPolls: MAX_POLLS,
  // A batch's GET does not hold (its counts change every few seconds).
  waitSeconds: 0,
};

// "Within reason": never poll a resource more often than 4 times a second, never wait on one
// for more than a day from a single call.
const POLL_LIMITS: Record<keyof PollOptions, Range> = {
  firstPollDelayMs: { min: 250, max: 10 * MINUTE },
  minIntervalMs: { min: 250, max: 10 * MINUTE },
  maxIntervalMs: { min: 250, max: 10 * MINUTE },
  timeoutMs: { min: 1_000, max: DAY },
  maxPolls: { min: 1, max: MAX_POLLS, integer: true },
  // The service holds at most 60 s (MAX_PREFER_WAIT_SECONDS).
  waitSeconds: { min: 0, max: 60, integer: true },
};

const RETRY_LIMITS: Record<keyof RetryOptions, Range> = {
  maxRetries: { min: 0, max: 10, integer: true },
  baseDelayMs: { min: 50, max: MINUTE },
  maxDelayMs: { min: 50, max: 5 * MINUTE },
  maxRetryAfterMs: { min: 0, max: 10 * MINUTE },
};

const REQUEST_TIMEOUT_LIMITS: Range = { min: 100, max: 10 * MINUTE };

interface Range {
  min: number;
  max: number;
  integer?: boolean;
}

export function resolvePollOptions(overrides: Partial<PollOptions> | undefined, base: PollOptions = DEFAULT_POLL_OPTIONS): PollOptions {
  const options = { ...base, ...withoutUndefined(overrides) };
  checkRanges('poll', options, POLL_LIMITS);
  if (options.maxIntervalMs < options.minIntervalMs) {
    throw new AssayArgumentError(`poll.maxIntervalMs (${options.maxIntervalMs}) must not be less than poll.minIntervalMs (${options.minIntervalMs})`);
  }
  if (options.firstPollDelayMs > options.timeoutMs) {
    throw new AssayArgumentError(`poll.firstPollDelayMs (${options.firstPollDelayMs}) must not exceed poll.timeoutMs (${options.timeoutMs})`);
  }
  return options;
}

export function resolveRetryOptions(overrides: Partial<RetryOptions> | undefined, base: RetryOptions = DEFAULT_RETRY_OPTIONS): RetryOptions {
  const options = { ...base, ...withoutUndefined(overrides) };
  checkRanges('retry', options, RETRY_LIMITS);
  if (options.maxDelayMs < options.baseDelayMs) {
    throw new AssayArgumentError(`retry.maxDelayMs (${options.maxDelayMs}) must not be less than retry.baseDelayMs (${options.baseDelayMs})`);
  }
  return options;
}

export function resolveRequestTimeout(timeoutMs: number | undefined, fallback = DEFAULT_REQUEST_TIMEOUT_MS): number {
  const value = timeoutMs ?? fallback;
  checkRange('requestTimeoutMs', value, REQUEST_TIMEOUT_LIMITS);
  return value;
}

/** The base URL with a trailing slash, so relative paths resolve beneath any path prefix it has. */
export function resolveBaseUrl(explicit: string | undefined): string {
  const raw = explicit ?? readEnv('ASSAY_BASE_URL') ?? DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AssayArgumentError(`Base URL ${JSON.stringify(raw)} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AssayArgumentError(`Base URL must be http or https, not ${url.protocol}`);
  }
  if (url.search || url.hash) {
    throw new AssayArgumentError('Base URL must not carry a query string or fragment');
  }
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

export function resolveApiKey(explicit: string | undefined): string {
  const key = explicit ?? readEnv('ASSAY_API_KEY');
  if (key === undefined || key.trim() === '') {
    throw new AssayArgumentError('No API key: pass apiKey or set ASSAY_API_KEY');
  }
  if (/[\s]/.test(key)) {
    throw new AssayArgumentError('The API key must not contain whitespace');
  }
  return key;
}

/** Environment variables, where there is a `process` (Node); browsers have none and get undefined. */
export function readEnv(name: string): string | undefined {
  const host = globalThis as { process?: { env?: Record<string, string | undefined> } };
  const value = host.process?.env?.[name];
  return value === '' ? undefined : value;
}

function checkRanges<T extends object>(group: string, options: T, limits: Record<keyof T, Range>): void {
  for (const name of Object.keys(limits) as (keyof T & string)[]) {
    checkRange(`${group}.${name}`, options[name] as unknown, limits[name]);
  }
}

function checkRange(name: string, value: unknown, range: Range): void {
  const valid =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= range.min &&
    value <= range.max &&
    (!range.integer || Number.isInteger(value));
  if (!valid) {
    const kind = range.integer ? 'an integer' : 'a number';
    throw new AssayArgumentError(`${name} must be ${kind} from ${range.min} to ${range.max}, got ${String(value)}`);
  }
}

function withoutUndefined<T extends object>(overrides: Partial<T> | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(overrides ?? {}).filter(([, value]) => value !== undefined)) as Partial<T>;
}

import { randomUUID } from 'node:crypto';
import { AssayApiError, AssayClient, type FetchFunction, type Task } from '../../src/sdk';

/** One answer the API gave the load, as the SDK's fetch saw it. */
export interface LoadAnswer {
  /** `POST /v1/ai/tasks`, `GET /v1/ai/tasks/{task_id}`. */
  operation: string;
  status: number;
  /** The error body's code, on an answer that is not 2xx. */
  code?: string;
  /** Retry-After as sent, when it was. */
  retryAfter: string | null;
  sentAt: number;
  answeredAt: number;
}

/** A create the API accepted: the task its Idempotency-Key now names. */
export interface AcceptedTask {
  idempotencyKey: string;
  id: string;
  /** When the first attempt went out, and when the API accepted one. */
  firstSentAt: number;
  acceptedAt: number;
}

export interface SteadyTaskLoadOptions {
  baseUrl: string;
  key: string;
  /** One new create this often. */
  createEveryMs: number;
  /** One poll of an unfinished task this often, round the unfinished ones in turn. */
  pollEveryMs: number;
}

// The SDK retries a create at most 10 times (RetryOptions.maxRetries' ceiling), which a Temporal
// outage of more than ~20 s outlasts at Retry-After: 2. A client keeps its Idempotency-Key and
// calls again, which is what `create` below does until the API accepts or the load is stopped.
const SDK_RETRIES = 10;
const GIVE_UP_AFTER_STOP_MS = 120_000;
const TASK_PATH = /^\/v1\/ai\/tasks\/[^/]+$/;

/**
 * A steady load of summaries sent as clients send them, through the SDK: a create every
 * `createEveryMs`, each under its own Idempotency-Key and retried (503 and 429 after their
 * Retry-After) until the API accepts it, and a poll of an unfinished task every `pollEveryMs`.
 * Records every answer and every accepted task, for a test that takes a dependency away under it.
 */
export class SteadyTaskLoad {
  readonly answers: LoadAnswer[] = [];
  /** By Idempotency-Key. */
  readonly accepted = new Map<string, AcceptedTask>();
  /** Last status a poll read, by task id. */
  readonly lastStatus = new Map<string, Task['status']>();
  /** Creates whose every attempt failed in a way a retry cannot fix, with why. */
  readonly givenUp: Array<{ idempotencyKey: string; error: string }> = [];
  private readonly client: AssayClient;
  private readonly pending = new Set<Promise<void>>();
  private timers: NodeJS.Timeout[] = [];
  private stoppedAt?: number;
  private created = 0;
  private polling = false;
  private nextPoll = 0;

  constructor(private readonly options: SteadyTaskLoadOptions) {
    const recording: FetchFunction = async (url, init) => {
      const sentAt = Date.now();
      const response = await fetch(url, init);
      const path = new URL(url).pathname;
      const operation = `${init.method ?? 'GET'} ${TASK_PATH.test(path) ? '/v1/ai/tasks/{task_id}' : path}`;
      const answeredAt = Date.now();
      const code = response.ok ? undefined : await errorCode(response);
      this.answers.push({ operation, status: response.status, code, retryAfter: response.headers.get('retry-after'), sentAt, answeredAt });
      return response;
    };
    this.client = new AssayClient({ baseUrl: options.baseUrl, apiKey: options.key, fetch: recording, retry: { maxRetries: SDK_RETRIES } });
  }

  start(): void {
    this.timers.push(setInterval(() => this.track(this.create()), this.options.createEveryMs));
    this.timers.push(setInterval(() => this.track(this.pollOne()), this.options.pollEveryMs));
  }

  /** Sends no more creates and polls no more; resolves once every create sent is accepted or given up. */
  async stop(): Promise<void> {
    this.stoppedAt = Date.now();
    this.timers.forEach((timer) => clearInterval(timer));
    this.timers = [];
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** The answers to `operation` sent from `from` and answered by `to` (ms since the epoch). */
  answersTo(operation: string, from: number, to: number): LoadAnswer[] {
    return this.answers.filter((answer) => answer.operation === operation && answer.sentAt >= from && answer.answeredAt <= to);
  }

  private track(work: Promise<void>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  private async create(): Promise<void> {
    const idempotencyKey = randomUUID();
    const firstSentAt = Date.now();
    const text = `Load item ${++this.created} arrived under ${idempotencyKey}. It must be summarised exactly once.`;
    for (;;) {
      try {
        const task = await this.client.createTask({ task_type: 'summarize', input: { text } }, { idempotencyKey });
        this.accepted.set(idempotencyKey, { idempotencyKey, id: task.id, firstSentAt, acceptedAt: Date.now() });
        return;
      } catch (error) {
        const retryable = error instanceof AssayApiError && (error.status === 503 || error.status === 429);
        if (!retryable || (this.stoppedAt !== undefined && Date.now() - this.stoppedAt > GIVE_UP_AFTER_STOP_MS)) {
          this.givenUp.push({ idempotencyKey, error: String(error) });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, error.retryAfterMs ?? 1000));
      }
    }
  }

  /** One GET of the next unfinished task; one at a time, so a slow answer in an outage does not pile polls up. */
  private async pollOne(): Promise<void> {
    if (this.polling) return;
    const unfinished = [...this.accepted.values()].filter(({ id }) => !['succeeded', 'failed'].includes(this.lastStatus.get(id) ?? 'queued'));
    if (unfinished.length === 0) return;
    const { id } = unfinished[this.nextPoll++ % unfinished.length];
    this.polling = true;
    try {
      this.lastStatus.set(id, (await this.client.getTask(id)).status);
    } catch {
      // Recorded in `answers`: what the test asserts on.
    } finally {
      this.polling = false;
    }
  }
}

/** The code of an error body, read from a copy so the SDK still reads the answer itself. */
async function errorCode(response: Response): Promise<string | undefined> {
  try {
    return ((await response.clone().json()) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

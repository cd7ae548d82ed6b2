import { LRUCache } from 'lru-cache';
import { AssayArgumentError, TaskFailedError } from './errors';
import { type FetchFunction, type HttpResponse, HttpTransport } from './http-transport';
import { idempotencyKeyFor } from './idempotency-key';
import {
  DEFAULT_BATCH_POLL_OPTIONS,
  type PollOptions,
  type RetryOptions,
  resolveApiKey,
  resolveBaseUrl,
  resolvePollOptions,
  resolveRequestTimeout,
  resolveRetryOptions,
} from './options';
import { type PollRun, type Polled, heldSeconds, pollUntilFinal } from './polling';
import { followPages, listPageFrom, listQueryString } from './list-pages';
import { assessmentFrom, batchFrom, modelsFrom, taskFrom, usageReportFrom } from './resource-guards';
import type { Assessment, AssessmentStatus, Batch, CreateAssessmentRequest, CreateBatchRequest, CreateTaskRequest, FailedTask, ListPage, ListQuery, Model, SucceededTask, Task, TaskStatus, UsageReport } from './resources';
import { withRetries } from './retry';
import { parseRetryAfter } from './retry-after';
import { WebhookEndpoints } from './webhook-endpoints';

export interface AssayClientOptions {
  /** Default: ASSAY_BASE_URL, then http://localhost:3000. */
  baseUrl?: string;
  /** Default: ASSAY_API_KEY. */
  apiKey?: string;
  /** How long one HTTP request may take, body included. Default 15 s. */
  requestTimeoutMs?: number;
  /** Polling schedule for waitForTask, summarize and waitForAssessment. Default: the service's polling guidance (docs/api.md). waitForBatch has its own (DEFAULT_BATCH_POLL_OPTIONS). */
  poll?: Partial<PollOptions>;
  /** Retries of creates. Default: 3 retries, backoff from 0.5 s up to 8 s. */
  retry?: Partial<RetryOptions>;
  /** Default: the global fetch. */
  fetch?: FetchFunction;
}

export interface RequestOptions {
  signal?: AbortSignal;
  requestTimeoutMs?: number;
}

export interface GetOptions extends RequestOptions {
  /** Ask the service to hold the answer up to this many seconds (at most 60) until the resource changes state (`Prefer: wait`). */
  waitSeconds?: number;
}

export interface CreateOptions extends RequestOptions {
  /** Default: a fresh UUID. It is sent on the first attempt and on every retry of this call. */
  idempotencyKey?: string;
  retry?: Partial<RetryOptions>;
  /** Ask the service to hold the create up to this many seconds (at most 60) until the task is final (`Prefer: wait`); it answers the task as it then stands. */
  waitSeconds?: number;
}

export interface WaitOptions<T> extends RequestOptions {
  poll?: Partial<PollOptions>;
  /** Called with the resource after every poll that got one, e.g. to show progress. */
  onPoll?: (resource: T, poll: number) => void;
}

export interface SummarizeOptions extends WaitOptions<Task> {
  maxSentences?: number;
  /** A model the service offers (listModels); absent, the service's default. */
  model?: string;
  idempotencyKey?: string;
  retry?: Partial<RetryOptions>;
}

type FinalTask = SucceededTask | FailedTask;
type CompletedAssessment = Assessment & { status: 'completed' };
type EndedBatch = Batch & { status: 'ended' };

const TASKS_PATH = 'v1/ai/tasks';
// Creates whose Retry-After the client keeps until their wait starts; a client creating more before waiting forgets the oldest.
const PACED_CREATES_REMEMBERED = 1_000;
const BATCHES_PATH = 'v1/ai/batches';
const MODELS_PATH = 'v1/models';
const USAGE_PATH = 'v1/usage';
const ASSESSMENTS_PATH = 'v1/network-assessments';

/** Typed client of the Assay API v1. Needs only fetch, AbortController and crypto.randomUUID. */
export class AssayClient {
  readonly baseUrl: string;
  /** Register, list, rotate and delete the organisation's webhook endpoints; read their deliveries. */
  readonly webhooks: WebhookEndpoints;
  private readonly transport: HttpTransport;
  private readonly requestTimeoutMs: number;
  private readonly pollOptions: PollOptions;
  private readonly retryOptions: RetryOptions;
  // A create answered at once may carry Retry-After: the service pacing its pollers. The wait that
  // follows leaves that long before its first poll, however the caller chains the two.
  private readonly firstPollNotBefore = new LRUCache<string, number>({ max: PACED_CREATES_REMEMBERED });

  constructor(options: AssayClientOptions = {}) {
    this.baseUrl = resolveBaseUrl(options.baseUrl);
    this.requestTimeoutMs = resolveRequestTimeout(options.requestTimeoutMs);
    this.pollOptions = resolvePollOptions(options.poll);
    this.retryOptions = resolveRetryOptions(options.retry);
    this.transport = new HttpTransport(this.baseUrl, resolveApiKey(options.apiKey), options.fetch ?? globalFetch());
    this.webhooks = new WebhookEndpoints((request) => this.transport.send({ ...request, timeoutMs: resolveRequestTimeout(request.timeoutMs, this.requestTimeoutMs) }));
  }

  /** POST /v1/ai/tasks, retried safely under one Idempotency-Key. */
  async createTask(request: CreateTaskRequest, options: CreateOptions = {}): Promise<Task> {
    const response = await this.create(TASKS_PATH, request, options);
    const task = taskFrom(response);
    const pollAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
    if (pollAfterMs !== undefined && !isFinalTask(task)) this.firstPollNotBefore.set(task.id, Date.now() + pollAfterMs);
    return task;
  }

  async getTask(id: string, options: GetOptions = {}): Promise<Task> {
    return taskFrom(await this.get(TASKS_PATH, id, options));
  }

  /** One page of the caller's tasks: unfinished first, then the most recently finished. */
  async listTasks(query: ListQuery<TaskStatus> = {}, options: RequestOptions = {}): Promise<ListPage<Task>> {
    return listPageFrom(await this.list(TASKS_PATH, query, options), taskFrom);
  }

  /** Every page of the caller's tasks for these filters: `for await (const page of client.taskPages({ status: 'failed' }))`. */
  taskPages(query: ListQuery<TaskStatus> = {}, options: RequestOptions = {}): AsyncGenerator<ListPage<Task>, void, undefined> {
    return followPages(query, (pageQuery) => this.listTasks(pageQuery, options));
  }

  /** Cancels a task that is not final yet: it ends as failed with error.code CANCELED. A final task is 409 TASK_ALREADY_FINAL. */
  async cancelTask(id: string, options: RequestOptions = {}): Promise<Task> {
    return taskFrom(await this.cancel(TASKS_PATH, id, options));
  }

  /** Erases the task with its history (a running one is canceled first); resolves again when you erased it before; an id you have no task by rejects with 404. */
  async deleteTask(id: string, options: RequestOptions = {}): Promise<void> {
    await this.erase(TASKS_PATH, id, options);
  }

  /**
   * Polls until the task is final. Resolves with a succeeded task; rejects with TaskFailedError
   * when it failed, PollTimeoutError at the poll ceiling, AssayApiError on any non-2xx poll.
   * Pass the task from createTask to skip polling when it is already final.
   */
  async waitForTask(taskOrId: Task | string, options: WaitOptions<Task> = {}): Promise<SucceededTask> {
    const id = resourceId(taskOrId, (task) => task.id);
    const notBefore = this.firstPollNotBefore.get(id);
    this.firstPollNotBefore.delete(id);
    const run = { ...this.pollRun(options), ...(notBefore === undefined ? {} : { firstPollAfterMs: Math.max(0, notBefore - Date.now()) }) };
    const final =
      typeof taskOrId !== 'string' && isFinalTask(taskOrId)
        ? taskOrId
        : await pollUntilFinal(
            { resourceId: id, isFinal: isFinalTask, fetch: (timeoutMs, signal, waitSeconds) => this.poll(TASKS_PATH, id, { requestTimeoutMs: timeoutMs, signal, waitSeconds }, taskFrom) },
            run,
          );
    if (final.status === 'failed') throw new TaskFailedError(final);
    return final;
  }

  /** Creates a summarize task and waits for it; the summary is `output.summary` of the result. */
  async summarize(text: string, options: SummarizeOptions = {}): Promise<SucceededTask> {
    if (typeof text !== 'string') throw new AssayArgumentError('summarize() needs the text as a string');
    const input = options.maxSentences === undefined ? { text } : { text, max_sentences: options.maxSentences };
    const request: CreateTaskRequest = { task_type: 'summarize', input, ...(options.model === undefined ? {} : { model: options.model }) };
    const task = await this.createTask(request, { ...options, waitSeconds: this.heldCreateSeconds(options.poll) });
    return this.waitForTask(task, options);
  }

  /**
   * The wait a create asks for (CreateOptions.waitSeconds) so it is held as the first poll of this
   * schedule would be: a task done within the wait then takes one request. 0 when the schedule asks for none.
   */
  heldCreateSeconds(poll?: Partial<PollOptions>): number {
    const { schedule } = this.pollRun({ poll });
    return heldSeconds(schedule.waitSeconds, schedule.timeoutMs);
  }

  /** POST /v1/ai/batches: up to 10,000 items, each of which becomes a task as the service admits it. Retried safely under one Idempotency-Key. */
  async createBatch(request: CreateBatchRequest, options: CreateOptions = {}): Promise<Batch> {
    return batchFrom(await this.create(BATCHES_PATH, request, options));
  }

  async getBatch(id: string, options: RequestOptions = {}): Promise<Batch> {
    return batchFrom(await this.get(BATCHES_PATH, id, options));
  }

  /** Items not yet admitted never run and running tasks are canceled; the batch ends once they closed. A batch that ended uncanceled is 409 BATCH_ALREADY_ENDED. */
  async cancelBatch(id: string, options: RequestOptions = {}): Promise<Batch> {
    return batchFrom(await this.cancel(BATCHES_PATH, id, options));
  }

  /** One page of the tasks the batch's items have become so far, each with its item_key; listed as listTasks lists. */
  async listBatchTasks(id: string, query: ListQuery<TaskStatus> = {}, options: RequestOptions = {}): Promise<ListPage<Task>> {
    return listPageFrom(await this.list(`${resourcePath(BATCHES_PATH, id)}/tasks`, query, options), taskFrom);
  }

  /** Every page of the batch's tasks for these filters: `for await (const page of client.batchTaskPages(batch.id))`. */
  batchTaskPages(id: string, query: ListQuery<TaskStatus> = {}, options: RequestOptions = {}): AsyncGenerator<ListPage<Task>, void, undefined> {
    return followPages(query, (pageQuery) => this.listBatchTasks(id, pageQuery, options));
  }

  /**
   * Polls until the batch has ended, on DEFAULT_BATCH_POLL_OPTIONS (every 2–5 s, up to an hour)
   * unless `poll` says otherwise; onPoll sees its counts grow. Resolves whatever its tasks' outcomes
   * (read them with batchTaskPages); rejects with PollTimeoutError at the ceiling, AssayApiError on
   * any non-2xx poll. Pass the batch from createBatch to skip polling when it has already ended.
   */
  async waitForBatch(batchOrId: Batch | string, options: WaitOptions<Batch> = {}): Promise<Batch> {
    const id = resourceId(batchOrId, (batch) => batch.id);
    if (typeof batchOrId !== 'string' && isEnded(batchOrId)) return batchOrId;
    return pollUntilFinal(
      { resourceId: id, isFinal: isEnded, fetch: async (timeoutMs, signal) => ({ resource: await this.getBatch(id, { requestTimeoutMs: timeoutMs, signal }), held: false }) },
      this.pollRun(options, DEFAULT_BATCH_POLL_OPTIONS),
    );
  }

  /** The models a task may name, the service's default among them. */
  async listModels(options: RequestOptions = {}): Promise<Model[]> {
    const timeoutMs = resolveRequestTimeout(options.requestTimeoutMs, this.requestTimeoutMs);
    return modelsFrom(await this.transport.send({ method: 'GET', path: MODELS_PATH, timeoutMs, signal: options.signal }));
  }

  /** What the organisation used in the key's environment, per UTC day and model; `from`/`to` are YYYY-MM-DD (default: the last 30 days). */
  async getUsage(range: { from?: string; to?: string } = {}, options: RequestOptions = {}): Promise<UsageReport> {
    const timeoutMs = resolveRequestTimeout(options.requestTimeoutMs, this.requestTimeoutMs);
    const query = new URLSearchParams(Object.entries(range).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
    return usageReportFrom(await this.transport.send({ method: 'GET', path: query ? `${USAGE_PATH}?${query}` : USAGE_PATH, timeoutMs, signal: options.signal }));
  }

  /** POST /v1/network-assessments, retried safely under one Idempotency-Key. */
  async createAssessment(request: CreateAssessmentRequest, options: CreateOptions = {}): Promise<Assessment> {
    return assessmentFrom(await this.create(ASSESSMENTS_PATH, request, options));
  }

  async getAssessment(id: string, options: GetOptions = {}): Promise<Assessment> {
    return assessmentFrom(await this.get(ASSESSMENTS_PATH, id, options));
  }

  /** Erases the assessment with its history (an open one is canceled first); resolves again when you erased it before; an id you have no assessment by rejects with 404. */
  async deleteAssessment(id: string, options: RequestOptions = {}): Promise<void> {
    await this.erase(ASSESSMENTS_PATH, id, options);
  }

  /** One page of the caller's assessments: open ones first, then the most recently completed. */
  async listAssessments(query: ListQuery<AssessmentStatus> = {}, options: RequestOptions = {}): Promise<ListPage<Assessment>> {
    return listPageFrom(await this.list(ASSESSMENTS_PATH, query, options), assessmentFrom);
  }

  /** Every page of the caller's assessments for these filters. */
  assessmentPages(query: ListQuery<AssessmentStatus> = {}, options: RequestOptions = {}): AsyncGenerator<ListPage<Assessment>, void, undefined> {
    return followPages(query, (pageQuery) => this.listAssessments(pageQuery, options));
  }

  /**
   * Polls until the assessment is completed (reviewed). A review can take days, so pass a longer
   * `poll.timeoutMs` and `poll.maxPolls` than the defaults when waiting for one.
   */
  async waitForAssessment(assessmentOrId: Assessment | string, options: WaitOptions<Assessment> = {}): Promise<Assessment> {
    const id = resourceId(assessmentOrId, (assessment) => assessment.assessment_id);
    if (typeof assessmentOrId !== 'string' && isCompleted(assessmentOrId)) return assessmentOrId;
    return pollUntilFinal(
      { resourceId: id, isFinal: isCompleted, fetch: (timeoutMs, signal, waitSeconds) => this.poll(ASSESSMENTS_PATH, id, { requestTimeoutMs: timeoutMs, signal, waitSeconds }, assessmentFrom) },
      this.pollRun(options),
    );
  }

  private create(path: string, body: object, options: CreateOptions): Promise<HttpResponse> {
    const idempotencyKey = idempotencyKeyFor(options.idempotencyKey);
    const retry = options.retry ? resolveRetryOptions(options.retry, this.retryOptions) : this.retryOptions;
    const waitSeconds = options.waitSeconds ? preferredWait(options.waitSeconds) : 0;
    const timeoutMs = resolveRequestTimeout(options.requestTimeoutMs, this.requestTimeoutMs) + waitSeconds * 1000;
    const headers = { 'idempotency-key': idempotencyKey, ...(waitSeconds ? { prefer: `respond-async, wait=${waitSeconds}` } : {}) };
    return withRetries(
      () => this.transport.send({ method: 'POST', path, body, headers, timeoutMs, signal: options.signal }),
      retry,
      options.signal,
    );
  }

  private get(collectionPath: string, id: string, options: GetOptions): Promise<HttpResponse> {
    const waitSeconds = options.waitSeconds ? preferredWait(options.waitSeconds) : 0;
    const timeoutMs = resolveRequestTimeout(options.requestTimeoutMs, this.requestTimeoutMs);
    const headers = waitSeconds ? { prefer: `wait=${waitSeconds}` } : undefined;
    return this.transport.send({ method: 'GET', path: resourcePath(collectionPath, id), headers, timeoutMs, signal: options.signal });
  }

  private async poll<T>(collectionPath: string, id: string, options: GetOptions, resourceFrom: (response: HttpResponse) => T): Promise<Polled<T>> {
    const response = await this.get(collectionPath, id, options);
    const pollAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
    return { resource: resourceFrom(response), held: response.headers.has('preference-applied'), ...(pollAfterMs === undefined ? {} : { pollAfterMs }) };
  }

  private cancel(collectionPath: string, id: string, options: RequestOptions): Promise<HttpResponse> {
    const timeoutMs = resolveRequestTimeout(options.requestTimeoutMs, this.requestTimeoutMs);
    return this.transport.send({ method: 'POST', path: `${resourcePath(collectionPath, id)}/cancel`, timeoutMs, signal: options.signal });
  }

  private async erase(collectionPath: string, id: string, options: RequestOptions): Promise<void> {
    const timeoutMs = resolveRequestTimeout(options.requestTimeoutMs, this.requestTimeoutMs);
    await this.transport.send({ method: 'DELETE', path: resourcePath(collectionPath, id), timeoutMs, signal: options.signal });
  }

  private list<S extends string>(collectionPath: string, query: ListQuery<S>, options: RequestOptions): Promise<HttpResponse> {
    const timeoutMs = resolveRequestTimeout(options.requestTimeoutMs, this.requestTimeoutMs);
    return this.transport.send({ method: 'GET', path: `${collectionPath}${listQueryString(query)}`, timeoutMs, signal: options.signal });
  }

  private pollRun<T>(options: WaitOptions<T>, base: PollOptions = this.pollOptions): PollRun<T> {
    return {
      schedule: options.poll ? resolvePollOptions(options.poll, base) : base,
      requestTimeoutMs: resolveRequestTimeout(options.requestTimeoutMs, this.requestTimeoutMs),
      signal: options.signal,
      onPoll: options.onPoll,
    };
  }
}

function isFinalTask(task: Task): task is FinalTask {
  return task.status === 'succeeded' || task.status === 'failed';
}

function isCompleted(assessment: Assessment): assessment is CompletedAssessment {
  return assessment.status === 'completed';
}

function isEnded(batch: Batch): batch is EndedBatch {
  return batch.status === 'ended';
}

function preferredWait(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > 60) throw new AssayArgumentError(`waitSeconds must be a whole number from 0 to 60, not ${seconds}`);
  return seconds;
}

function resourcePath(collectionPath: string, id: string): string {
  if (typeof id !== 'string' || id.trim() === '') throw new AssayArgumentError('The id must be a non-empty string');
  return `${collectionPath}/${encodeURIComponent(id)}`;
}

function resourceId<T>(resourceOrId: T | string, idOf: (resource: T) => string): string {
  const id = typeof resourceOrId === 'string' ? resourceOrId : idOf(resourceOrId);
  if (typeof id !== 'string' || id.trim() === '') throw new AssayArgumentError('The id must be a non-empty string');
  return id;
}

function globalFetch(): FetchFunction {
  if (typeof globalThis.fetch !== 'function') {
    throw new AssayArgumentError('No global fetch here; pass options.fetch');
  }
  // Called through globalThis each time: browsers reject fetch invoked with any other `this`.
  return (url, init) => globalThis.fetch(url, init);
}

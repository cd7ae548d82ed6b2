import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { Client, Connection, WorkflowNotFoundError, type WorkflowClient, type WorkflowExecutionDescription, type WorkflowExecutionInfo } from '@temporalio/client';
import { executionInfoFromRaw } from '@temporalio/client/lib/helpers';
import type { Priority } from '@temporalio/common';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import { optionalTsToDate } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import type { AppConfig } from '../../../common/config/app-config';
import type { KeyEnvironment } from '../../../common/keys/api-key';
import { assayDataConverter } from '../../../common/temporal/data-converter';
import { isGrpcNotFound } from '../../../common/temporal/grpc-status';
import { organizationPriority } from '../../../common/temporal/organization-priority';
import { distinct, perEnvironment } from '../../../common/temporal/per-environment';
import { isTemporalUnavailable } from './temporal-errors';
import type { TaskPriority } from '../../../contract';

/** One run visibility listed: a workflow id may have several (an operator's reset starts another). */
export interface ListedRun {
  workflowId: string;
  runId: string;
}

export interface ListedRunPage {
  runs: ListedRun[];
  nextPageToken?: Uint8Array;
}

export interface ListedExecutionPage {
  executions: WorkflowExecutionInfo[];
  nextPageToken?: Uint8Array;
}

/** One answer of a long poll on a run's history. */
export interface HistoryPoll {
  /** Events in this answer; none when the server's own long-poll window passed with nothing new. */
  events: number;
  /** Where the next poll waits from; undefined once the run has closed (or is gone). */
  nextPageToken?: Uint8Array;
}

/**
 * A run's close event, as a long poll on it answers: when a run completed with a result, that
 * result decoded and when it closed; any other close (failed, canceled, terminated, timed out,
 * continued as new) only as not completed.
 */
export type RunClose = { completed: false } | { completed: true; closedAt: Date; result: unknown };

const CLOSE_EVENT_ONLY = temporal.api.enums.v1.HistoryEventFilterType.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT;

/**
 * A client per environment, each on its own namespace, over one connection to Temporal, or one per
 * environment when their connection settings differ.
 */
export class TemporalClients {
  private readonly clients: Record<KeyEnvironment, Client>;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly connections: Record<KeyEnvironment, Connection>,
    private readonly config: AppConfig,
  ) {
    // With tracing on, each start, signal, update and query is a span whose context travels to the workflow in its headers.
    const interceptors = { workflow: config.tracing ? [new OpenTelemetryWorkflowClientInterceptor()] : [] };
    this.clients = {
      test: new Client({ connection: connections.test, namespace: this.namespaceFor('test'), dataConverter: assayDataConverter(config), interceptors }),
      live: new Client({ connection: connections.live, namespace: this.namespaceFor('live'), dataConverter: assayDataConverter(config), interceptors }),
    };
  }

  static create(config: AppConfig): TemporalClients {
    // Lazy: the API starts and answers 503 while Temporal is down, instead of refusing to boot.
    return new TemporalClients(perEnvironment(config.temporalConnections, (options) => Connection.lazy(options)), config);
  }

  namespaceFor(environment: KeyEnvironment): string {
    const values = this.config.values;
    return environment === 'live' ? values.TEMPORAL_NAMESPACE_PRODUCTION : values.TEMPORAL_NAMESPACE_SANDBOX;
  }

  /** The whole client, for code that needs more than workflows (the review client reads histories). */
  client(environment: KeyEnvironment): Client {
    return this.clients[environment];
  }

  workflows(environment: KeyEnvironment): WorkflowClient {
    return this.clients[environment].workflow;
  }

  /**
   * describe() of a workflow, or undefined when there is none with that id (what a 404 is made of).
   * Without a run id the server first looks the current run up in its database; with one it answers
   * from its cache of workflow state.
   */
  async describe(environment: KeyEnvironment, workflowId: string, runId?: string): Promise<WorkflowExecutionDescription | undefined> {
    const handle = this.workflows(environment).getHandle(workflowId, runId);
    return this.withDeadline(() => handle.describe()).catch((error: unknown) => {
      if (error instanceof WorkflowNotFoundError) return undefined;
      throw error;
    });
  }

  /**
   * One long poll on a run's history (GetWorkflowExecutionHistory with waitNewEvent): without a
   * token it answers the history so far at once; with the token of the previous answer it answers
   * when events beyond it exist or the run closes. Undefined when `timeoutMs` passed first, or
   * Temporal could not be reached: the caller answers with what it knows.
   */
  async awaitHistory(environment: KeyEnvironment, workflowId: string, runId: string, pageToken: Uint8Array | undefined, timeoutMs: number): Promise<HistoryPoll | undefined> {
    try {
      const response = await this.withDeadline(
        () =>
          this.clients[environment].workflowService.getWorkflowExecutionHistory({
            namespace: this.namespaceFor(environment),
            execution: { workflowId, runId },
            nextPageToken: pageToken,
            waitNewEvent: true,
            skipArchival: true,
          }),
        timeoutMs,
      );
      const nextPageToken = response.nextPageToken && response.nextPageToken.length > 0 ? response.nextPageToken : undefined;
      return { events: response.history?.events?.length ?? 0, nextPageToken };
    } catch (error) {
      if (isGrpcNotFound(error)) return { events: 0 };
      if (isTemporalUnavailable(error)) return undefined;
      throw error;
    }
  }

  /**
   * Waits for a run to close, as the SDK's result() does (GetWorkflowExecutionHistory with
   * waitNewEvent, the close event only), and answers its close event: when it closed as well as
   * the result, which result() leaves out. Without a run id, the current run. Undefined when
   * `timeoutMs` passed first, the run is gone, or Temporal could not be reached.
   */
  async awaitClose(environment: KeyEnvironment, workflowId: string, runId: string | undefined, timeoutMs: number): Promise<RunClose | undefined> {
    const client = this.clients[environment];
    const deadline = Date.now() + timeoutMs;
    let nextPageToken: Uint8Array | undefined;
    try {
      for (;;) {
        const remainingMs = deadline - Date.now();
        if (remainingMs <= 0) return undefined;
        const response = await this.withDeadline(
          () =>
            client.workflowService.getWorkflowExecutionHistory({
              namespace: this.namespaceFor(environment),
              execution: { workflowId, runId },
              nextPageToken,
              waitNewEvent: true,
              skipArchival: true,
              historyEventFilterType: CLOSE_EVENT_ONLY,
            }),
          remainingMs,
        );
        const event = response.history?.events?.[0];
        if (!event) {
          // The server's own long-poll window passed: wait again from where it left off.
          nextPageToken = response.nextPageToken ?? undefined;
          continue;
        }
        const closedAt = optionalTsToDate(event.eventTime);
        const completed = event.workflowExecutionCompletedEventAttributes;
        if (!completed || completed.newExecutionRunId || !closedAt) return { completed: false };
        return { completed: true, closedAt, result: await decodeFromPayloadsAtIndex(client.options.loadedDataConverter, 0, completed.result?.payloads) };
      }
    } catch (error) {
      if (isGrpcNotFound(error) || isTemporalUnavailable(error)) return undefined;
      throw error;
    }
  }

  /** The runs of one visibility page, newest first, and the token of the next page if any. */
  async listRuns(environment: KeyEnvironment, query: string, pageSize: number, pageToken?: Uint8Array): Promise<ListedRunPage> {
    const response = await this.withDeadline(() =>
      this.clients[environment].workflowService.listWorkflowExecutions({
        namespace: this.namespaceFor(environment),
        query,
        pageSize,
        nextPageToken: pageToken,
      }),
    );
    const token = response.nextPageToken;
    return {
      runs: (response.executions ?? []).flatMap(({ execution }) =>
        execution?.workflowId && execution.runId ? [{ workflowId: execution.workflowId, runId: execution.runId }] : [],
      ),
      nextPageToken: token && token.length > 0 ? token : undefined,
    };
  }

  /** One visibility page of runs as the SDK describes them (memo decoded), and the token of the next page if any. */
  async listExecutions(environment: KeyEnvironment, query: string, pageSize: number, pageToken?: Uint8Array): Promise<ListedExecutionPage> {
    const client = this.clients[environment];
    const response = await this.withDeadline(() =>
      client.workflowService.listWorkflowExecutions({ namespace: this.namespaceFor(environment), query, pageSize, nextPageToken: pageToken }),
    );
    const executions = await Promise.all((response.executions ?? []).map((raw) => executionInfoFromRaw(raw, client.options.loadedDataConverter, raw, this.namespaceFor(environment))));
    const token = response.nextPageToken;
    return { executions, nextPageToken: token && token.length > 0 ? token : undefined };
  }

  /**
   * Deletes a run with its history (DeleteWorkflowExecution; without a run id, the current one),
   * terminating it if it still runs. Temporal deletes in the background; a run already gone is no error.
   */
  async deleteRun(environment: KeyEnvironment, workflowId: string, runId?: string): Promise<void> {
    await this.withDeadline(() =>
      this.clients[environment].workflowService.deleteWorkflowExecution({ namespace: this.namespaceFor(environment), workflowExecution: { workflowId, runId } }),
    ).catch((error: unknown) => {
      if (!isGrpcNotFound(error)) throw error;
    });
  }

  /** Starts a workflow on the service's task queue. */
  async start(environment: KeyEnvironment, workflowType: string, workflowId: string, args: unknown[]): Promise<void> {
    await this.withDeadline(() => this.workflows(environment).start(workflowType, { taskQueue: this.taskQueue, workflowId, args }));
  }

  /** Asks the workflow's current run to cancel; the run decides how it ends. */
  async requestCancel(environment: KeyEnvironment, workflowId: string): Promise<void> {
    await this.withDeadline(() => this.workflows(environment).getHandle(workflowId).cancel());
  }

  /** What a closed run returned. */
  resultOf<T>(environment: KeyEnvironment, workflowId: string, runId: string): Promise<T> {
    return this.withDeadline(() => this.workflows(environment).getHandle(workflowId, runId).result() as Promise<T>);
  }

  get taskQueue(): string {
    return this.config.values.TEMPORAL_TASK_QUEUE;
  }

  get rpcTimeoutMs(): number {
    return this.config.values.TEMPORAL_RPC_TIMEOUT_MS;
  }

  /** How long the namespaces keep a closed workflow (RETENTION_PERIOD). */
  get retentionMs(): number {
    return this.config.values.RETENTION_PERIOD;
  }

  /** What an organisation's workflows of that priority start with, for fair dispatch on the shared task queues. */
  priorityFor(organizationId: string, priority?: TaskPriority): Priority {
    return organizationPriority(organizationId, this.config.values.FAIRNESS_WEIGHTS, priority);
  }

  /** Bounds every call so a GET never hangs when the frontend is unreachable. */
  withDeadline<T>(call: () => Promise<T>, timeoutMs: number = this.rpcTimeoutMs): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    // Each connection keeps its deadline in its own call context: the call runs inside all of them, whichever it uses.
    const bounded = distinct(this.connections).reduce<() => Promise<T>>((inner, connection) => () => connection.withDeadline(deadline, inner), call);
    const pending = bounded();
    const settled = pending.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(settled);
    void settled.then(() => this.inFlight.delete(settled));
    return pending;
  }

  /**
   * Closes the connections once the calls in flight have settled (each within its deadline): a call
   * Temporal refused with UNAVAILABLE retries on a timer, and a retry that finds its channel closed
   * throws outside any caller, which ends the process.
   */
  async close(): Promise<void> {
    await Promise.all([...this.inFlight]);
    await Promise.all(distinct(this.connections).map((connection) => connection.close()));
  }
}

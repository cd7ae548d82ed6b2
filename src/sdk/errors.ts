import type { Assessment, Batch, FailedTask, ServiceErrorCode, Task } from './resources';

/** The service's error codes, plus the client's own for a response it cannot read. */
export type ApiErrorCode = ServiceErrorCode | 'UNEXPECTED_RESPONSE';

/** Base of every error the SDK throws on purpose; an abort rethrows the signal's own reason instead. */
export class AssayError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }

  // Spelled out in each class because minifiers rename classes, which would change new.target.name.
  override name = 'AssayError';
}

/** The service answered with a non-2xx status, or with a body that is not the expected resource. */
export class AssayApiError extends AssayError {
  override name = 'AssayApiError';
  readonly status: number;
  readonly code: ApiErrorCode | (string & {});
  readonly request_id: string | undefined;
  /** From Retry-After, when the service sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(fields: {
    status: number;
    code: ApiErrorCode | (string & {});
    message: string;
    request_id?: string;
    retryAfterMs?: number;
  }) {
    super(fields.message);
    this.status = fields.status;
    this.code = fields.code;
    this.request_id = fields.request_id;
    this.retryAfterMs = fields.retryAfterMs;
  }
}

/** No HTTP response arrived: connection refused or reset, DNS failure, TLS failure. */
export class AssayNetworkError extends AssayError {
  override name = 'AssayNetworkError';
  constructor(
    readonly method: string,
    readonly url: string,
    cause: unknown,
  ) {
    super(`${method} ${url} failed before a response arrived: ${describeCause(cause)}`, { cause });
  }
}

/** One HTTP request took longer than its timeout; the client gave up on it. */
export class RequestTimeoutError extends AssayError {
  override name = 'RequestTimeoutError';
  constructor(
    readonly method: string,
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super(`${method} ${url} got no complete response within ${timeoutMs} ms`);
  }
}

/** The task reached status failed; `code` and `message` are the task's own error. */
export class TaskFailedError extends AssayError {
  override name = 'TaskFailedError';
  readonly taskId: string;
  readonly code: string;

  constructor(readonly task: FailedTask) {
    super(`Task ${task.id} failed with ${task.error.code}: ${task.error.message}`);
    this.taskId = task.id;
    this.code = task.error.code;
  }
}

/** Polling reached its time or poll ceiling before the resource became final. */
export class PollTimeoutError extends AssayError {
  override name = 'PollTimeoutError';
  constructor(
    readonly resourceId: string,
    readonly polls: number,
    readonly elapsedMs: number,
    /** The resource as last seen; undefined when no poll succeeded. */
    readonly lastSeen: Task | Assessment | Batch | undefined,
    /** The network error or request timeout of the last poll, when it had one. */
    cause?: unknown,
  ) {
    super(
      `${resourceId} was not final after ${polls} poll(s) in ${Math.round(elapsedMs / 100) / 10} s` +
        (lastSeen ? ` (last status: ${lastSeen.status})` : ''),
      { cause },
    );
  }
}

/** A caller passed an option or argument the client cannot use. */
export class AssayArgumentError extends AssayError {
  override name = 'AssayArgumentError';
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : '';
  return `${cause.message}${inner}`;
}

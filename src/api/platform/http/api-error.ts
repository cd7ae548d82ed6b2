import type { ServiceErrorCode } from '../../../contract/wire/values';

/** Declared once, on the wire (src/contract/wire/values.ts), so every code the API sends is one the SDK names. */
export type ErrorCode = ServiceErrorCode;

/** An error a client is meant to see: an HTTP status, a stable code and a message safe to show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  static invalidRequest(message: string): ApiError {
    return new ApiError(400, 'INVALID_REQUEST', message);
  }

  static notFound(what: string): ApiError {
    return new ApiError(404, 'NOT_FOUND', `${what} was not found`);
  }

  /** A dependency ("The workflow engine", "The database") could not answer; the request may succeed if retried. */
  static serviceUnavailable(dependency: string): ApiError {
    return new ApiError(503, 'SERVICE_UNAVAILABLE', `${dependency} is unreachable; retry shortly`, { 'retry-after': '2' });
  }
}

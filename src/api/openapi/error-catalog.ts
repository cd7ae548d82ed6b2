import type { ErrorCode } from '../http/api-error';

export interface ErrorCatalogEntry {
  status: number;
  meaning: string;
}

/**
 * Every client-facing error code with its HTTP status and what it means. A Record over ErrorCode,
 * so a code added to ApiError does not compile until it is documented here.
 */
export const ERROR_CATALOG: Record<ErrorCode, ErrorCatalogEntry> = {
  INVALID_REQUEST: { status: 400, meaning: 'Malformed JSON, wrong types, missing or unknown fields, blank text, bad Idempotency-Key or query parameter.' },
  UNSUPPORTED_TASK_TYPE: { status: 400, meaning: 'task_type is not one the service runs (today: summarize).' },
  UNAUTHORIZED: { status: 401, meaning: 'Missing, malformed, unknown, expired or revoked API key.' },
  NOT_FOUND: { status: 404, meaning: "No such resource for this organisation and environment (another organisation's id is 404 too, never 403)." },
  TASK_ALREADY_FINAL: { status: 409, meaning: 'The task already succeeded or failed, so it can no longer be canceled.' },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'input.text or the architecture is over its size limit, or the body is over ~1 MiB.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'A body was sent with a Content-Type other than application/json.' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, meaning: 'This Idempotency-Key was already used with a different body.' },
  RATE_LIMITED: { status: 429, meaning: 'Too many creates for this key; wait for Retry-After seconds.' },
  INTERNAL: { status: 500, meaning: 'A defect in the service; the request id finds it in the logs.' },
  SERVICE_UNAVAILABLE: { status: 503, meaning: 'Temporal or the key store is unreachable, or the instance is shutting down; retry after Retry-After.' },
};

export const ERROR_CODES = Object.keys(ERROR_CATALOG) as [ErrorCode, ...ErrorCode[]];

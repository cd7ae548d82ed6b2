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
  UNKNOWN_MODEL: { status: 400, meaning: 'model names no model this service offers; GET /v1/models lists them.' },
  UNAUTHORIZED: { status: 401, meaning: 'Missing, malformed, unknown, expired or revoked API key.' },
  FORBIDDEN: { status: 403, meaning: 'The credential is of the wrong kind: a customer API key on a review operation, or a reviewer credential on a customer operation.' },
  NOT_FOUND: { status: 404, meaning: "No such resource for this organisation and environment (another organisation's id is 404 too, never 403)." },
  METHOD_NOT_ALLOWED: { status: 405, meaning: 'The path exists but not with this method; the Allow header lists the methods it has.' },
  TASK_ALREADY_FINAL: { status: 409, meaning: 'The task already succeeded or failed, so it can no longer be canceled.' },
  BATCH_ALREADY_ENDED: { status: 409, meaning: 'The batch has ended (every admitted item is final), so it can no longer be canceled.' },
  REVIEW_REFUSED: { status: 409, meaning: "The review's state does not allow the action (checks still running, claimed by another reviewer, not claimed, already completed); the message says which." },
  REVISION_NOT_ALLOWED: { status: 409, meaning: "revision_of names an assessment that cannot be revised: not reviewed yet, approved or rejected rather than changes_requested, or already revised by another assessment; the message says which." },
  ENDPOINT_DISABLED: { status: 409, meaning: 'The webhook endpoint is disabled (its receiver answered 410 Gone); enable it before sending it a test event or a redelivery.' },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'input.text, an item\'s text, a batch\'s item count or the architecture is over its limit, or the body is over its limit (4 MiB by default, 32 MiB for a batch).' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'A body was sent with a Content-Type other than application/json.' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, meaning: 'This Idempotency-Key was already used with a different body.' },
  RATE_LIMITED: { status: 429, meaning: 'Too many creates and erasures for this key, or for this organisation in this environment, or the service is at capacity and this organisation creates the most, or too many failed credentials from this client; wait for Retry-After seconds.' },
  INTERNAL: { status: 500, meaning: 'A defect in the service; the request id finds it in the logs.' },
  NOT_IMPLEMENTED: { status: 501, meaning: 'The request method is not one the service knows (RFC 9110 §9.1).' },
  REVIEW_UNCONFIRMED: { status: 504, meaning: 'No worker accepted or refused the review action in time; it may still apply when one runs: GET the assessment before retrying.' },
  SERVICE_UNAVAILABLE: { status: 503, meaning: 'Temporal or the database (keys, webhook endpoints, usage, batch items, console sessions) is unreachable, or the instance is shutting down; retry after Retry-After.' },
  ENCRYPTION_REQUIRED: { status: 503, meaning: 'A live key asked this instance to store or return production data, and it has no payload encryption keys; nothing was stored or read. Another instance may answer; the operator must configure the keys.' },
};

/** An error status with the code it carries and why it happens. */
export interface StatusError {
  status: number;
  code: ErrorCode;
  meaning: string;
}

/**
 * What Node and Fastify answer before any operation runs (src/api/platform/http/outside-pipeline-errors.ts,
 * create-api-app.ts), so any request can get them. They keep INVALID_REQUEST, the code they have
 * always carried, at the status HTTP gives them.
 */
export const HTTP_LAYER_ERRORS: StatusError[] = [
  { status: 400, code: 'INVALID_REQUEST', meaning: 'Not valid HTTP, or a path with broken percent-encoding.' },
  { status: 408, code: 'INVALID_REQUEST', meaning: 'The request did not arrive within the request timeout.' },
  { status: 414, code: 'INVALID_REQUEST', meaning: 'The URL is over 8 KiB, or a path segment is over 100 characters.' },
  { status: 417, code: 'INVALID_REQUEST', meaning: 'An Expect header other than 100-continue.' },
  { status: 431, code: 'INVALID_REQUEST', meaning: 'The request headers are over 16 KiB.' },
  { status: 503, code: 'SERVICE_UNAVAILABLE', meaning: 'The instance is shutting down; retry after Retry-After.' },
];

/** What any operation other than GET can get from its body, even one that needs none (a body sent is still read). */
export const BODY_ERRORS: StatusError[] = [
  { status: 400, code: 'INVALID_REQUEST', meaning: 'The body is not valid JSON or not valid UTF-8.' },
  { status: 413, code: 'PAYLOAD_TOO_LARGE', meaning: 'The body is over its limit (4 MiB by default, 32 MiB for a batch).' },
  { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', meaning: 'A body was sent with a Content-Type other than application/json.' },
];

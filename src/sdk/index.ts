// Public API of the Assay client SDK (`assay/client`). Nothing here may import NestJS, Temporal,
// Node built-ins or code outside src/sdk but the wire's types and plain lists (src/contract/wire):
// it runs in Node 20 and in browsers with fetch.

export {
  AssayClient,
  type AssayClientOptions,
  type CreateOptions,
  type GetOptions,
  type RequestOptions,
  type SummarizeOptions,
  type WaitOptions,
} from './assay-client';
export {
  type ApiErrorCode,
  AssayApiError,
  AssayArgumentError,
  AssayError,
  AssayNetworkError,
  PollTimeoutError,
  RequestTimeoutError,
  TaskFailedError,
} from './errors';
export type { FetchFunction } from './http-transport';
export {
  DEFAULT_BASE_URL,
  DEFAULT_BATCH_POLL_OPTIONS,
  DEFAULT_POLL_OPTIONS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_RETRY_OPTIONS,
  type PollOptions,
  type RetryOptions,
} from './options';
export type * from './resources';
export { WebhookEndpoints, type WebhookRequestOptions } from './webhook-endpoints';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
} from './webhook-verification';

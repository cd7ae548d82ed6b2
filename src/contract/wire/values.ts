// The closed lists and bounds the wire shapes are built from: plain values, so the workflows (which
// take them through the contract) bundle no schema library, and the SDK's guards use them at run
// time. Each union type is read off its list, so the list and the type cannot part.

/** A credential's environment: a test key reaches sandbox data only, a live key production data. */
export const CREDENTIAL_ENVIRONMENTS = ['test', 'live'] as const;
export type CredentialEnvironment = (typeof CREDENTIAL_ENVIRONMENTS)[number];

/** Every id a client sees is its kind's prefix and a ULID. */
export const TASK_ID_PREFIX = 'task_';
export const BATCH_ID_PREFIX = 'batch_';
export const ASSESSMENT_ID_PREFIX = 'asmt_';

export const TASK_TYPES = ['summarize'] as const;
/** What a task does; summarising is the only kind today. */
export type TaskType = (typeof TASK_TYPES)[number];

export const TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TASK_ERROR_CODES = ['INPUT_REJECTED', 'PROVIDER_UNAVAILABLE', 'TIMED_OUT', 'CANCELED', 'INTERNAL'] as const;
export type TaskErrorCode = (typeof TASK_ERROR_CODES)[number];

/** A task's urgency among its organisation's own work; it takes nothing from other organisations' shares. */
export const TASK_PRIORITIES = ['high', 'normal', 'low'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];

/** Model names as operators declare them and clients send them. */
export const MODEL_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$';

/** `built-in`: the in-process extractive summariser; `openai-compatible`: a model server the operator declared. */
export const MODEL_PROVIDERS = ['built-in', 'openai-compatible'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export const BATCH_STATUSES = ['in_progress', 'canceling', 'ended'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** What one POST /v1/ai/batches may hold (docs/api.md, Batch limits); the body's byte limit is configuration. */
export const MAX_BATCH_ITEMS = 10_000;
export const MAX_BATCH_ITEM_KEY_LENGTH = 128;

/** A batch's items default to low priority: an organisation's own single creates overtake its bulk work. */
export const DEFAULT_BATCH_PRIORITY: TaskPriority = 'low';

export const ASSESSMENT_STATUSES = ['submitted', 'under_review', 'completed'] as const;
export type AssessmentStatus = (typeof ASSESSMENT_STATUSES)[number];

export const FINDING_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

export const REVIEW_VERDICTS = ['approved', 'changes_requested', 'rejected'] as const;
export type ReviewVerdict = (typeof REVIEW_VERDICTS)[number];

/** `pending`: not reached yet; `active`: waiting for a claim or a verdict; `skipped`: an earlier stage ended the review; else the stage's verdict. */
export const REVIEW_STAGE_STATES = ['pending', 'active', 'approved', 'changes_requested', 'rejected', 'skipped'] as const;
export type ReviewStageState = (typeof REVIEW_STAGE_STATES)[number];

/** An SLA deadline the review passed: a stage waited too long for a claim, or a claimed one for its verdict. */
export const ASSESSMENT_ESCALATION_KINDS = ['claim_overdue', 'review_overdue'] as const;
export type AssessmentEscalationKind = (typeof ASSESSMENT_ESCALATION_KINDS)[number];

/** Bounds the workflow enforces on a reviewer update; the API refuses beyond them first, as a 400. */
export const MAX_REVIEWER_LENGTH = 100;
export const MAX_NOTES_LENGTH = 20_000;

export const WEBHOOK_EVENT_TYPES = ['ai_task.completed', 'ai_batch.completed', 'assessment.reviewed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The event a customer sends to one endpoint to check their receiver (POST …/test); nobody
 * subscribes to it, so it goes only where it is sent.
 */
export const TEST_WEBHOOK_EVENT_TYPE = 'webhook.test';
/** What a delivery can carry: a subscribed event type, or `webhook.test`, sent only where a customer asks for it. */
export type DeliveredWebhookEventType = WebhookEventType | typeof TEST_WEBHOOK_EVENT_TYPE;

/** Every error code the service sends (docs/api.md, Errors), in the order its catalog documents them. */
export const SERVICE_ERROR_CODES = [
  'INVALID_REQUEST',
  'UNSUPPORTED_TASK_TYPE',
  'UNKNOWN_MODEL',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'TASK_ALREADY_FINAL',
  'BATCH_ALREADY_ENDED',
  'REVIEW_REFUSED',
  'REVISION_NOT_ALLOWED',
  'ENDPOINT_DISABLED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_KEY_REUSED',
  'RATE_LIMITED',
  'INTERNAL',
  'NOT_IMPLEMENTED',
  'REVIEW_UNCONFIRMED',
  'SERVICE_UNAVAILABLE',
  'ENCRYPTION_REQUIRED',
] as const;
export type ServiceErrorCode = (typeof SERVICE_ERROR_CODES)[number];

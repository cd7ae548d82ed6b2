import type { Generated } from 'kysely';
import type { DeliveredWebhookEventType, WebhookEventType } from '../../contract';
import type { ProductionDataHandling } from '../config/payload-encryption-verdict';
import type { AssessmentWorkflowRef } from '../ids/assessment-ids';
import type { KeyEnvironment } from '../keys/api-key';

/**
 * Rows as the stores see them: CamelCasePlugin turns the snake_case columns into these names. Both
 * databases hand back the same values: SQLite stores timestamps as ISO 8601 text and JSON as text,
 * and the PostgreSQL connection parses its timestamptz, jsonb and bigint into those shapes
 * (postgres-dialect.ts), so a table needs at most one mapping to and from its domain type.
 */
export interface Tables {
  apiKeys: StoredKey;
  keyAuditLog: KeyAuditRow;
  webhookEndpoints: WebhookEndpointRow;
  webhookDeliveries: WebhookDeliveryAttempt;
  webhookSuppressedEvents: SuppressedWebhookEvent;
  webhookRedeliveries: WebhookRedelivery;
  reviewerCredentials: ReviewerCredentialRow;
  reviewerAuditLog: ReviewerAuditRow;
  consoleSessions: StoredConsoleSession;
  providerSlots: ProviderSlotRow;
  providerPace: ProviderPaceRow;
  usageRecords: UsageRecordRow;
  batchItems: BatchItemRow;
  assessmentIndex: AssessmentIndexRow;
  assessmentIndexProgress: AssessmentIndexProgressRow;
  assessmentRevisions: AssessmentRevisionRow;
  apiEncryptionReport: ApiEncryptionReportRow;
}

/** JSON text. */
type Json = string;

/** What an audit entry says beyond who did what to which credential and when. Never a secret or a hash. */
export type AuditDetails = Record<string, string | number | null>;

export interface StoredKey {
  id: string;
  organizationId: string;
  environment: KeyEnvironment;
  prefix: string;
  hash: Buffer;
  createdAt: string;
  revokedAt: string | null;
  /** Set by a rotation with a grace period: the key stops working at this instant. */
  expiresAt: string | null;
  /** Refreshed at most once a minute per API process, so it is approximate by design. */
  lastUsedAt: string | null;
}

export type KeyAuditAction = 'issue' | 'revoke' | 'rotate';

export interface KeyAuditRow {
  id: Generated<number>;
  at: string;
  actor: string;
  action: KeyAuditAction;
  keyId: string;
  org: string;
  env: KeyEnvironment;
  details: Json;
}

/**
 * A receiving URL of one organisation in one environment. The worker needs the signing secret to
 * sign (HMAC is symmetric), so unlike API keys it cannot be hashed: it is stored encrypted with the
 * key ring (SecretSealer); the store hands it out decrypted.
 */
export interface StoredWebhookEndpoint {
  id: string;
  organizationId: string;
  environment: KeyEnvironment;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  secret: string;
  /** The secret before the last rotation; it keeps signing until previousSecretExpiresAt. */
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  /** Set when the receiver answered 410 Gone: nothing more is sent. */
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export type WebhookEndpointRow = Omit<StoredWebhookEndpoint, 'events'> & { events: Json };

export type DeliveryOutcome = 'succeeded' | 'failed';

/** One HTTP attempt of one event to one endpoint. Never carries the body or a secret. */
export interface WebhookDeliveryAttempt {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: DeliveredWebhookEventType;
  attempt: number;
  outcome: DeliveryOutcome;
  /** Absent when no answer came (timeout, refused connection, refused address). */
  httpStatus: number | null;
  error: string | null;
  attemptedAt: string;
  durationMs: number;
}

/** Whose events: an organisation in one environment (event ids come from resource ids, which say neither). */
export interface EventOwner {
  organizationId: string;
  environment: KeyEnvironment;
}

/**
 * An event of an erased resource: no attempt sends it any more, whatever was already under way
 * when the resource was erased. Kept as long as delivery records are (the retention period).
 */
export interface SuppressedWebhookEvent extends EventOwner {
  eventId: string;
  suppressedAt: string;
}

/**
 * The workflow of a redelivery a customer asked for (webhookRedeliveryWorkflowId), recorded before
 * it starts, so the erasure of the event's resource finds it by the event id without waiting for
 * visibility to list it. Ids only: the body the workflow carries is never here.
 */
export interface WebhookRedelivery extends EventOwner {
  workflowId: string;
  eventId: string;
  startedAt: string;
}

/** A reviewer credential as stored: the hash of the secret, never the secret. */
export interface StoredReviewer {
  id: string;
  name: string;
  environment: KeyEnvironment;
  prefix: string;
  hash: Buffer;
  /** The pipeline stages' groups this reviewer may act in; none for credentials from before groups. */
  groups: string[];
  createdAt: string;
  revokedAt: string | null;
}

/** The groups are a JSON list in the database. */
export type ReviewerCredentialRow = Omit<StoredReviewer, 'groups'> & { groups: string };

export type ReviewerAuditAction = 'add' | 'revoke';

/** Who issued or revoked which reviewer credential, and when. Never carries a secret or a hash. */
export interface ReviewerAuditEntry {
  at: string;
  actor: string;
  action: ReviewerAuditAction;
  reviewerId: string;
  name: string;
  environment: KeyEnvironment;
  details: AuditDetails;
}

export type ReviewerAuditRow = Omit<ReviewerAuditEntry, 'details'> & { id: Generated<number>; details: Json };

export type ConsoleSessionKind = 'customer' | 'reviewer';

/**
 * A signed-in console: the credential it was opened with is referenced by id (an API key or a
 * reviewer credential, never the secret), and only hashes of the cookie and the CSRF token are kept.
 */
export interface StoredConsoleSession {
  idHash: Buffer;
  csrfHash: Buffer;
  kind: ConsoleSessionKind;
  credentialId: string;
  createdAt: string;
  expiresAt: string;
}

/** One of a model's call slots: free when it has no holder or its holder's lease has run out. */
export interface ProviderSlotRow {
  model: string;
  slot: number;
  holder: string | null;
  expiresAt: string | null;
}

/** When a model may next be called, for its requests-per-minute limit. */
export interface ProviderPaceRow {
  model: string;
  nextAt: string;
}

/** One finished task's usage: figures only. */
export interface UsageRecordRow {
  environment: KeyEnvironment;
  organizationId: string;
  taskId: string;
  /** The UTC day it finished, YYYY-MM-DD. */
  day: string;
  model: string;
  providerCalls: number;
  inputTokens: number | null;
  outputTokens: number | null;
  inputCharacters: number;
  outputCharacters: number;
  cost: number | null;
  recordedAt: string;
}

export interface BatchItemRow {
  environment: KeyEnvironment;
  organizationId: string;
  batchId: string;
  itemIndex: number;
  itemKey: string;
  /** The item's input as JSON, sealed like every secret at rest. */
  sealedInput: string;
  stagedAt: string;
}

/** Where an assessment stands in the review: what changes as reviewers act. */
export interface ReviewPlacement {
  /** When the current wait passes its SLA: the queue's order. */
  dueAt: string;
  claimedBy: string | null;
  /** Set once it is completed or its workflow closed: it leaves the queue. */
  closedAt: string | null;
  /** The active stage of its review pipeline; null once completed, or while nobody has said yet. */
  stage: string | null;
  /** That stage's reviewer group; null when any reviewer may act on it. */
  stageGroup: string | null;
}

/** One assessment: where its workflow is (the organisation names it) and its place in the queue. */
export interface AssessmentIndexRow extends ReviewPlacement, AssessmentWorkflowRef {
  environment: KeyEnvironment;
  createdAt: string;
}

export interface AssessmentIndexProgressRow {
  environment: KeyEnvironment;
  /** Every assessment started before this instant (by the server's clock, give or take visibility's lag) has a row. */
  indexedUntil: string;
}

/** One revision: `assessmentId` answers the changes requested of `revisionOf`, in the same organisation and environment. */
export interface AssessmentRevisionRow {
  environment: KeyEnvironment;
  organizationId: string;
  assessmentId: string;
  revisionOf: string;
  /** When the create recorded it, before its workflow started. */
  createdAt: string;
}

export interface ApiEncryptionReport {
  productionData: ProductionDataHandling;
  reportedAt: string;
}

/** The table holds one row, the latest report. */
export type ApiEncryptionReportRow = ApiEncryptionReport & { id: 1 };

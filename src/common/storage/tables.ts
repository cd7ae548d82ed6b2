import type { Generated } from 'kysely';
import type { KeyEnvironment } from '../keys/api-key';
import type { ApiEncryptionReportRow } from './api-encryption-report-store';
import type { AssessmentIndexProgressRow, AssessmentIndexRow } from './assessment-index-store';
import type { AssessmentRevisionRow } from './assessment-revision-store';
import type { KeyAuditAction, StoredKey } from './key-store';
import type { StoredConsoleSession } from './console-session-store';
import type { ProviderPaceRow, ProviderSlotRow } from './provider-slot-store';
import type { UsageRecordRow } from './usage-store';
import type { BatchItemRow } from './batch-item-store';
import type { ReviewerAuditEntry, ReviewerCredentialRow } from './reviewer-store';
import type { StoredWebhookEndpoint, SuppressedWebhookEvent, WebhookDeliveryAttempt, WebhookRedelivery } from './webhook-store';

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

export type WebhookEndpointRow = Omit<StoredWebhookEndpoint, 'events'> & { events: Json };

export type ReviewerAuditRow = Omit<ReviewerAuditEntry, 'details'> & { id: Generated<number>; details: Json };

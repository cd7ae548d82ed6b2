import type { Generated } from 'kysely';
import type { WebhookEventType } from '../../contract';
import type { KeyEnvironment } from '../keys/api-key';
import type { KeyAuditAction } from './key-store';
import type { DeliveryOutcome } from './webhook-store';

/**
 * Rows as both databases hand them back. SQLite stores timestamps as ISO 8601 text and JSON as
 * text; the PostgreSQL connection parses its timestamptz, jsonb and bigint values into the same
 * shapes (postgres-dialect.ts), so each table has one mapping to and from its domain type.
 */
export interface Tables {
  api_keys: ApiKeyRow;
  key_audit_log: KeyAuditRow;
  webhook_endpoints: WebhookEndpointRow;
  webhook_deliveries: WebhookDeliveryRow;
}

/** ISO 8601 text from Date.toISOString(); its lexical order is chronological. */
type Timestamp = string;

/** JSON text. */
type Json = string;

export interface ApiKeyRow {
  id: string;
  organization_id: string;
  environment: KeyEnvironment;
  prefix: string;
  hash: Buffer;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  expires_at: Timestamp | null;
  last_used_at: Timestamp | null;
}

export interface KeyAuditRow {
  id: Generated<number>;
  at: Timestamp;
  actor: string;
  action: KeyAuditAction;
  key_id: string;
  org: string;
  env: KeyEnvironment;
  details: Json;
}

export interface WebhookEndpointRow {
  id: string;
  organization_id: string;
  environment: KeyEnvironment;
  url: string;
  /** WebhookEventType[] */
  events: Json;
  description: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Timestamp | null;
  disabled_at: Timestamp | null;
  disabled_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: WebhookEventType;
  attempt: number;
  outcome: DeliveryOutcome;
  http_status: number | null;
  error: string | null;
  attempted_at: Timestamp;
  duration_ms: number;
}

import type { KeyEnvironment } from '../keys/api-key';
import type { WebhookEventType } from '../../contract';

/**
 * A receiving URL of one organisation in one environment. The signing secret is stored as is:
 * the worker needs it to sign (HMAC is symmetric), so unlike API keys it cannot be hashed.
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

export type DeliveryOutcome = 'succeeded' | 'failed';

/** One HTTP attempt of one event to one endpoint. Never carries the body or a secret. */
export interface WebhookDeliveryAttempt {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: WebhookEventType;
  attempt: number;
  outcome: DeliveryOutcome;
  /** Absent when no answer came (timeout, refused connection, refused address). */
  httpStatus: number | null;
  error: string | null;
  attemptedAt: string;
  durationMs: number;
}

export interface SecretRotation {
  id: string;
  secret: string;
  previousSecretExpiresAt: string;
  at: string;
}

/** Persistence of webhook endpoints and delivery attempts; abstract class so it doubles as the DI token. */
export abstract class WebhookStore {
  abstract create(endpoint: StoredWebhookEndpoint): Promise<void>;
  abstract find(id: string): Promise<StoredWebhookEndpoint | undefined>;
  /** Oldest first. */
  abstract listFor(organizationId: string, environment: KeyEnvironment): Promise<StoredWebhookEndpoint[]>;
  abstract delete(id: string): Promise<boolean>;
  /** The current secret becomes the previous one; returns the endpoint as it now is. */
  abstract rotateSecret(rotation: SecretRotation): Promise<StoredWebhookEndpoint | undefined>;
  abstract disable(id: string, reason: string, at: string): Promise<void>;
  abstract recordDelivery(attempt: WebhookDeliveryAttempt): Promise<void>;
  /** Newest first. */
  abstract listDeliveries(endpointId: string, limit: number): Promise<WebhookDeliveryAttempt[]>;
  abstract close(): Promise<void>;
}

import type { KeyEnvironment } from '../keys/api-key';

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

/** Who did what to which key, and when. Never carries a secret or a hash. */
export interface KeyAuditEntry {
  at: string;
  actor: string;
  action: KeyAuditAction;
  keyId: string;
  organizationId: string;
  environment: KeyEnvironment;
  details: Record<string, string | number | null>;
}

export interface RecordedAuditEntry extends KeyAuditEntry {
  id: number;
}

/** Ends an active key either now (revokedAt) or later (expiresAt). */
export interface KeyEnding {
  id: string;
  revokedAt?: string;
  expiresAt?: string;
}

/** One operator action: at most one key ended, at most one key added, and the audit entries describing it. */
export interface KeyChange {
  at: string;
  end?: KeyEnding;
  add?: StoredKey;
  audit: KeyAuditEntry[];
}

export interface AuditQuery {
  keyId?: string;
  /** The newest entries are kept; they are returned oldest first. */
  limit: number;
}

/**
 * Persistence of API keys and their audit log; only hashes are ever stored. The decisions live in
 * KeyService so every store behaves the same. Abstract class so it doubles as the DI token.
 */
export abstract class KeyStore {
  /**
   * Applies a change in one transaction. Returns false, changing nothing, when the key to end is
   * not active at `change.at` (unknown, revoked or expired).
   */
  abstract apply(change: KeyChange): Promise<boolean>;
  abstract findByHash(hash: Buffer): Promise<StoredKey | undefined>;
  abstract findById(id: string): Promise<StoredKey | undefined>;
  abstract list(): Promise<StoredKey[]>;
  /** Moves last_used_at forward to `at`; never backwards. */
  abstract recordUse(id: string, at: Date): Promise<void>;
  abstract auditLog(query: AuditQuery): Promise<RecordedAuditEntry[]>;
  abstract close(): Promise<void>;
}

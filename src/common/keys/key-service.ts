import { CredentialService, type CredentialSummary } from '../credentials/credential-service';
import { API_KEYS, type KeyEnvironment } from './api-key';
import type { AuditQuery, KeyAuditEntry, KeyEnding, KeyStore, RecordedAuditEntry } from '../storage/key-store';
import type { KeyAuditAction, StoredKey } from '../storage/tables';

export const ORGANIZATION_ID_SHAPE = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface IssuedKey {
  id: string;
  key: string;
  org: string;
  env: KeyEnvironment;
}

export interface RotatedKey {
  issued: IssuedKey;
  replacedKeyId: string;
  /** When the replaced key stops working: now without a grace period. */
  replacedKeyEndsAt: string;
}

export interface RotateOptions {
  /** How long the replaced key keeps working; 0 (the default) revokes it at once. */
  graceMs?: number;
  reason?: string;
}

export type KeySummary = CredentialSummary<StoredKey>;

export class InvalidOrganizationError extends Error {
  constructor(org: string) {
    super(`organisation id "${org}" must be 1-63 lowercase letters, digits or dashes, starting with a letter or digit`);
  }
}

/**
 * Operator-side key lifecycle: issue, list, revoke, rotate, audit. Every change is written to the
 * audit log in the same transaction. The secret exists only in the return value of issue/rotate.
 */
export class KeyService extends CredentialService<StoredKey, KeyStore> {
  protected readonly kind = API_KEYS;

  async issue(org: string, env: KeyEnvironment): Promise<IssuedKey> {
    if (!ORGANIZATION_ID_SHAPE.test(org)) throw new InvalidOrganizationError(org);
    const at = this.clock().toISOString();
    const { key, stored } = this.newKey(org, env, at);
    await this.store.apply({ at, add: stored, audit: [this.auditEntry('issue', stored, at, {})] });
    return { id: stored.id, key, org, env };
  }

  /** Returns false when no active key has that id. */
  async revoke(id: string, reason?: string): Promise<boolean> {
    const at = this.clock().toISOString();
    const key = await this.store.findById(id);
    if (!key) return false;
    return this.store.apply({ at, end: { id, revokedAt: at }, audit: [this.auditEntry('revoke', key, at, reason ? { reason } : {})] });
  }

  /** Issues a new key for the same organisation and environment and ends the old one. Undefined when no active key has that id. */
  async rotate(id: string, options: RotateOptions = {}): Promise<RotatedKey | undefined> {
    const now = this.clock();
    const at = now.toISOString();
    const old = await this.store.findById(id);
    if (!old) return undefined;
    const graceMs = options.graceMs ?? 0;
    const ending: KeyEnding =
      graceMs > 0 ? { id, expiresAt: earliest(old.expiresAt, new Date(now.getTime() + graceMs).toISOString()) } : { id, revokedAt: at };
    const endsAt = ending.expiresAt ?? at;
    const { key, stored } = this.newKey(old.organizationId, old.environment, at);
    const rotateDetails: KeyAuditEntry['details'] = { replaced_by: stored.id, grace_seconds: graceMs / 1000, ends_at: endsAt };
    if (options.reason) rotateDetails.reason = options.reason;
    const applied = await this.store.apply({
      at,
      end: ending,
      add: stored,
      audit: [this.auditEntry('rotate', old, at, rotateDetails), this.auditEntry('issue', stored, at, { rotated_from: old.id })],
    });
    if (!applied) return undefined;
    return { issued: { id: stored.id, key, org: stored.organizationId, env: stored.environment }, replacedKeyId: id, replacedKeyEndsAt: endsAt };
  }

  audit(query: AuditQuery): Promise<RecordedAuditEntry[]> {
    return this.store.auditLog(query);
  }

  private newKey(org: string, env: KeyEnvironment, at: string): { key: string; stored: StoredKey } {
    const { secret: key, ...minted } = this.mint(env);
    const stored: StoredKey = { ...minted, organizationId: org, environment: env, createdAt: at, revokedAt: null, expiresAt: null, lastUsedAt: null };
    return { key, stored };
  }

  private auditEntry(action: KeyAuditAction, key: StoredKey, at: string, details: KeyAuditEntry['details']): KeyAuditEntry {
    return { at, actor: this.actor, action, keyId: key.id, organizationId: key.organizationId, environment: key.environment, details };
  }
}

function earliest(existing: string | null, candidate: string): string {
  return existing !== null && existing < candidate ? existing : candidate;
}

import { ulid } from 'ulid';
import { generateApiKey, hashApiKey, visiblePrefix, type KeyEnvironment } from './api-key';
import type { KeyStore, StoredKey } from './key-store';

export const ORGANIZATION_ID_SHAPE = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface IssuedKey {
  id: string;
  key: string;
  org: string;
  env: KeyEnvironment;
}

export type KeySummary = Omit<StoredKey, 'hash'>;

export class InvalidOrganizationError extends Error {
  constructor(org: string) {
    super(`organisation id "${org}" must be 1-63 lowercase letters, digits or dashes, starting with a letter or digit`);
  }
}

/** Operator-side key lifecycle: issue, list, revoke. The secret exists only in the return value of issue(). */
export class KeyService {
  constructor(
    private readonly store: KeyStore,
    private readonly brand: string,
  ) {}

  async issue(org: string, env: KeyEnvironment, now = new Date()): Promise<IssuedKey> {
    if (!ORGANIZATION_ID_SHAPE.test(org)) throw new InvalidOrganizationError(org);
    const key = generateApiKey(this.brand, env);
    const id = `key_${ulid()}`;
    await this.store.insert({
      id,
      organizationId: org,
      environment: env,
      prefix: visiblePrefix(key),
      hash: hashApiKey(key),
      createdAt: now.toISOString(),
      revokedAt: null,
    });
    return { id, key, org, env };
  }

  async list(): Promise<KeySummary[]> {
    const keys = await this.store.list();
    return keys.map(({ hash: _hash, ...summary }) => summary);
  }

  async revoke(id: string, now = new Date()): Promise<boolean> {
    return this.store.revoke(id, now);
  }
}

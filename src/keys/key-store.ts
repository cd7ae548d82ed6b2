import type { KeyEnvironment } from './api-key';

export interface StoredKey {
  id: string;
  organizationId: string;
  environment: KeyEnvironment;
  prefix: string;
  hash: Buffer;
  createdAt: string;
  revokedAt: string | null;
}

/** Persistence of API keys; only hashes are ever stored. Abstract class so it doubles as the DI token. */
export abstract class KeyStore {
  abstract insert(key: StoredKey): Promise<void>;
  abstract findByHash(hash: Buffer): Promise<StoredKey | undefined>;
  abstract list(): Promise<StoredKey[]>;
  /** Returns false when no active key has that id. */
  abstract revoke(id: string, at: Date): Promise<boolean>;
  abstract close(): Promise<void>;
}

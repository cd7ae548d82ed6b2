import type { KeyObject } from 'node:crypto';

/** An AES-256 key and the id stored beside what it encrypted. */
export interface EncryptionKey {
  id: string;
  key: KeyObject;
}

/**
 * Where encryption keys come from. The configured ring holds them in memory; a KMS-backed ring
 * would hand out data keys it unwraps, caching them as it sees fit.
 */
export interface KeyRing {
  /** The key new data is encrypted with: the newest one. */
  current(): Promise<EncryptionKey>;
  /** The key with this id, or undefined when the ring does not hold it (any older key still decrypts). */
  byId(id: string): Promise<EncryptionKey | undefined>;
}

/** The keys from configuration, newest first. */
export class StaticKeyRing implements KeyRing {
  private readonly byIds: ReadonlyMap<string, EncryptionKey>;

  constructor(private readonly keys: readonly EncryptionKey[]) {
    if (keys.length === 0) throw new Error('a key ring needs at least one key');
    this.byIds = new Map(keys.map((key) => [key.id, key]));
  }

  current(): Promise<EncryptionKey> {
    return Promise.resolve(this.keys[0]);
  }

  byId(id: string): Promise<EncryptionKey | undefined> {
    return Promise.resolve(this.byIds.get(id));
  }
}

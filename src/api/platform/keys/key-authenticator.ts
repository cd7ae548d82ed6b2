import { API_KEYS, type KeyEnvironment } from '../../../common/keys/api-key';
import type { KeyStore } from '../../../common/storage/key-store';
import type { StoredKey } from '../../../common/storage/tables';
import { CredentialAuthenticator } from '../credentials/credential-authenticator';
import type { KeyUsageRecorder } from './key-usage-recorder';

export interface Caller {
  organizationId: string;
  environment: KeyEnvironment;
  keyId: string;
}

export interface KeyAuthenticatorOptions {
  clock?: () => Date;
  usage?: KeyUsageRecorder;
}

/** Turns a presented API key into a caller, or nothing, noting each use for `last used`. */
export class KeyAuthenticator extends CredentialAuthenticator<StoredKey, Caller> {
  constructor(store: KeyStore, brand: string, cacheTtlMs: number, options: KeyAuthenticatorOptions = {}) {
    super(API_KEYS, store, brand, { cacheTtlMs, cacheMax: 10_000, clock: options.clock }, (stored, now) => {
      options.usage?.noteUse(stored.id, now);
      return { organizationId: stored.organizationId, environment: stored.environment, keyId: stored.id };
    });
  }
}

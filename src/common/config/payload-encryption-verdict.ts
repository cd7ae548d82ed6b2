export interface PayloadEncryptionFacts {
  /** An encryption key ring is configured (PAYLOAD_ENCRYPTION_KEYS, _FILE, or the data directory's key file). */
  keysConfigured: boolean;
  /** PAYLOAD_ENCRYPTION: `off` is the operator's explicit consent to store production data in plaintext. */
  setting: 'required' | 'off';
  /** Production customer data would pass through: the process serves production and an active live API key exists, or one is being issued. */
  production: boolean;
}

export type PayloadEncryptionVerdict = { kind: 'encrypted' } | { kind: 'plaintext'; warning: string } | { kind: 'refused'; problem: string };

const KEY_SETTINGS = 'PAYLOAD_ENCRYPTION_KEYS or PAYLOAD_ENCRYPTION_KEYS_FILE';

/**
 * Encryption fails closed: production data is never stored in plaintext unless the operator said
 * so. The sandbox alone may run without keys (a developer's API next to only test keys), but never
 * silently: whatever runs in plaintext is told so at every start.
 */
export function payloadEncryptionVerdict(facts: PayloadEncryptionFacts): PayloadEncryptionVerdict {
  if (facts.keysConfigured) return { kind: 'encrypted' };
  if (facts.production && facts.setting === 'required') {
    return {
      kind: 'refused',
      problem: `Invalid configuration:\n  PAYLOAD_ENCRYPTION_KEYS: live API keys need payload encryption: set ${KEY_SETTINGS}, or PAYLOAD_ENCRYPTION=off to store production data in plaintext`,
    };
  }
  const why = facts.setting === 'off' ? 'PAYLOAD_ENCRYPTION=off and no encryption key' : `no encryption key (${KEY_SETTINGS})`;
  return { kind: 'plaintext', warning: `payload encryption is off (${why}): task and assessment payloads in Temporal, webhook signing secrets and staged batch texts are stored in plaintext` };
}

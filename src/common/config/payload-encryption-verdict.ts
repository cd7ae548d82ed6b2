export interface PayloadEncryptionFacts {
  /** An encryption key ring is configured (PAYLOAD_ENCRYPTION_KEYS, _FILE, or the data directory's key file). */
  keysConfigured: boolean;
  /** PAYLOAD_ENCRYPTION: `off` is the operator's explicit consent to store production data in plaintext. */
  setting: 'required' | 'off';
  /** Production customer data would pass through: the process serves production and an active live API key exists, or one is being issued. */
  production: boolean;
}

export type PayloadEncryptionVerdict = { kind: 'encrypted' } | { kind: 'plaintext'; warning: string } | { kind: 'refused'; problem: string };

/** What a process does with production data: encrypts it, keeps it in plaintext (PAYLOAD_ENCRYPTION=off), or refuses it (no key). */
export type ProductionDataHandling = PayloadEncryptionVerdict['kind'];

/** The settings that configure keys, as refusals and warnings name them. */
export const KEY_SETTINGS = 'PAYLOAD_ENCRYPTION_KEYS or PAYLOAD_ENCRYPTION_KEYS_FILE';

const STORED_IN_PLAINTEXT = 'task and assessment payloads in Temporal, webhook signing secrets and staged batch texts are stored in plaintext';

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
  if (facts.setting === 'off') return { kind: 'plaintext', warning: `payload encryption is off (PAYLOAD_ENCRYPTION=off and no encryption key): ${STORED_IN_PLAINTEXT}` };
  // The process starts, and refuses production data where it would store or serve it (refusesPlaintext).
  return { kind: 'plaintext', warning: `payload encryption is off (no encryption key (${KEY_SETTINGS})): the sandbox's ${STORED_IN_PLAINTEXT}; production's are refused (ENCRYPTION_REQUIRED)` };
}

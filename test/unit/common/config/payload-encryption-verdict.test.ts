import { AppConfig } from '../../../../src/common/config/app-config';
import { payloadEncryptionVerdict, type PayloadEncryptionFacts } from '../../../../src/common/config/payload-encryption-verdict';

const REFUSAL = /^Invalid configuration:\n {2}PAYLOAD_ENCRYPTION_KEYS: live API keys need payload encryption: set PAYLOAD_ENCRYPTION_KEYS or PAYLOAD_ENCRYPTION_KEYS_FILE, or PAYLOAD_ENCRYPTION=off to store production data in plaintext$/;
const WARNING = /^payload encryption is off \(.*\): (the sandbox's )?task and assessment payloads in Temporal, webhook signing secrets and staged batch texts are stored in plaintext/;

function verdict(facts: Partial<PayloadEncryptionFacts>) {
  return payloadEncryptionVerdict({ keysConfigured: false, setting: 'required', production: false, ...facts });
}

describe('payload encryption verdict', () => {
  it('is encrypted whenever keys are configured, whatever PAYLOAD_ENCRYPTION says and whoever is served', () => {
    for (const setting of ['required', 'off'] as const) {
      for (const production of [true, false]) expect(verdict({ keysConfigured: true, setting, production })).toEqual({ kind: 'encrypted' });
    }
  });

  it('refuses production without keys, naming the settings that fix it', () => {
    const refused = verdict({ production: true });
    expect(refused).toEqual({ kind: 'refused', problem: expect.stringMatching(REFUSAL) });
  });

  it('lets the sandbox alone run without keys, with a warning that says why and that production is refused', () => {
    expect(verdict({})).toEqual({ kind: 'plaintext', warning: expect.stringMatching(WARNING) });
    expect(verdict({})).toMatchObject({ warning: expect.stringContaining('(no encryption key (PAYLOAD_ENCRYPTION_KEYS or PAYLOAD_ENCRYPTION_KEYS_FILE))') });
    expect(verdict({})).toMatchObject({ warning: expect.stringMatching(/; production's are refused \(ENCRYPTION_REQUIRED\)$/) });
  });

  it('runs production in plaintext only on PAYLOAD_ENCRYPTION=off, and says so', () => {
    const plaintext = verdict({ setting: 'off', production: true });
    expect(plaintext).toEqual({ kind: 'plaintext', warning: expect.stringMatching(WARNING) });
    expect(plaintext).toMatchObject({ warning: expect.stringContaining('(PAYLOAD_ENCRYPTION=off and no encryption key)') });
    expect(plaintext).toMatchObject({ warning: expect.stringMatching(/plaintext$/) });
  });
});

describe('PAYLOAD_ENCRYPTION', () => {
  it('is required unless set to off, and nothing else', () => {
    expect(new AppConfig({}).values.PAYLOAD_ENCRYPTION).toBe('required');
    expect(new AppConfig({ PAYLOAD_ENCRYPTION: 'off' }).values.PAYLOAD_ENCRYPTION).toBe('off');
    expect(() => new AppConfig({ PAYLOAD_ENCRYPTION: 'false' })).toThrow(/PAYLOAD_ENCRYPTION: /);
  });
});

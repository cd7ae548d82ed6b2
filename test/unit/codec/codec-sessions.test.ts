import { CODEC_SESSION_TTL_SECONDS, CodecSessions } from '../../../src/codec/codec-sessions';

const CREDENTIAL = 'operator-credential-0123456789abcdef0123456789';
const START = Date.parse('2026-11-25T12:00:00Z');

function sessionsAt(now: { ms: number }, credential = CREDENTIAL): CodecSessions {
  return new CodecSessions(credential, () => now.ms);
}

describe('CodecSessions', () => {
  it('knows the credential and nothing else, whatever its length', () => {
    const sessions = sessionsAt({ ms: START });
    expect(sessions.isCredential(CREDENTIAL)).toBe(true);
    for (const other of ['', 'x', `${CREDENTIAL} `, CREDENTIAL.slice(0, -1), `${CREDENTIAL}${CREDENTIAL}`]) expect(sessions.isCredential(other)).toBe(false);
  });

  it('issues a sign-in that lasts 12 hours and holds no part of the credential', () => {
    const now = { ms: START };
    const sessions = sessionsAt(now);
    const value = sessions.issue();
    expect(value).not.toContain(CREDENTIAL.slice(0, 12));
    expect(sessions.expiryOf(value)).toEqual(new Date(START + CODEC_SESSION_TTL_SECONDS * 1000));
    expect(CODEC_SESSION_TTL_SECONDS).toBe(12 * 60 * 60);
    now.ms = START + CODEC_SESSION_TTL_SECONDS * 1000 - 1000;
    expect(sessions.expiryOf(value)).toBeDefined();
    now.ms = START + CODEC_SESSION_TTL_SECONDS * 1000;
    expect(sessions.expiryOf(value)).toBeUndefined();
  });

  it('refuses a sign-in whose expiry was moved, whose MAC was changed, or that another credential made', () => {
    const now = { ms: START };
    const sessions = sessionsAt(now);
    const value = sessions.issue();
    const [expires, mac] = value.split('.');
    expect(sessions.expiryOf(`${Number(expires) + 3600}.${mac}`)).toBeUndefined();
    expect(sessions.expiryOf(`${expires}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`)).toBeUndefined();
    expect(sessionsAt(now, `${CREDENTIAL}-rotated`).expiryOf(value)).toBeUndefined();
    for (const junk of [undefined, '', expires, `${expires}.`, `x.${mac}`, `${value}.extra`]) expect(sessions.expiryOf(junk)).toBeUndefined();
  });
});

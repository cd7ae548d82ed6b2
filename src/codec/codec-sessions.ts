import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { FailedCredentialThrottle, type CredentialAttempt } from '../common/credentials/failed-credential-throttle';

/** How long a browser stays signed in to the codec. */
export const CODEC_SESSION_TTL_SECONDS = 12 * 60 * 60;

const SESSION_VALUE = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * The operator credential and the browser sign-ins made with it. A sign-in is kept by the browser
 * alone, as a cookie holding its expiry and an HMAC of that expiry keyed with the credential: the
 * credential never leaves the server, and a new credential ends every sign-in made with the old one.
 * Wrong credentials, by Bearer or by the form, count against one throttle per client.
 */
export class CodecSessions {
  private readonly credentialDigest: Buffer;

  constructor(
    private readonly credential: string,
    private readonly clock: () => number = Date.now,
    private readonly throttle = new FailedCredentialThrottle(),
  ) {
    this.credentialDigest = sha256(credential);
  }

  /** A credential presented by `client` (Bearer or the sign-in form), failures throttled per client. */
  attempt(client: string, presented: string): Promise<CredentialAttempt<string>> {
    return this.throttle.attempt(client, () => (this.isCredential(presented) ? presented : undefined));
  }

  /** Compared as digests, in constant time whatever the presented value's length. */
  isCredential(presented: string): boolean {
    return timingSafeEqual(sha256(presented), this.credentialDigest);
  }

  /** A new sign-in's cookie value. */
  issue(): string {
    const expires = Math.floor(this.clock() / 1000) + CODEC_SESSION_TTL_SECONDS;
    return `${expires}.${this.mac(expires)}`;
  }

  /** When the sign-in behind a cookie value ends, or undefined if it is not one this credential made or has ended. */
  expiryOf(value: string | undefined): Date | undefined {
    const match = SESSION_VALUE.exec(value ?? '');
    if (!match) return undefined;
    const expires = Number(match[1]);
    if (!timingSafeEqual(Buffer.from(match[2]), Buffer.from(this.mac(expires)))) return undefined;
    return expires * 1000 > this.clock() ? new Date(expires * 1000) : undefined;
  }

  private mac(expires: number): string {
    return createHmac('sha256', this.credential).update(`assay-codec-session.${expires}`).digest('base64url');
  }
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

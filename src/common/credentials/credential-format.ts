import { createHash, randomBytes } from 'node:crypto';
import { CREDENTIAL_ENVIRONMENTS, type CredentialEnvironment } from '../../contract/wire/values';

const SECRET_BYTES = 24;
const VISIBLE_SECRET_CHARS = 6;

export interface ParsedCredential {
  brand: string;
  environment: CredentialEnvironment;
}

/**
 * The string of one kind of credential: `<brand>_<marker><env>_<32 url-safe chars>` carrying 192
 * random bits. Kinds differ only by their marker, which sits where another kind has its
 * environment, so no string ever parses as two kinds and each kind's routes refuse the others
 * before any lookup.
 */
export class CredentialFormat {
  private readonly shape: RegExp;

  /** `marker`: '' or lowercase letters and a trailing underscore; `noun`: what an error calls a string of this kind. */
  constructor(
    private readonly marker: string,
    private readonly noun: string,
  ) {
    this.shape = new RegExp(`^([a-z][a-z0-9]{1,15})_${marker}(${CREDENTIAL_ENVIRONMENTS.join('|')})_([A-Za-z0-9_-]{32})$`);
  }

  readonly generate = (brand: string, environment: CredentialEnvironment): string =>
    `${brand}_${this.marker}${environment}_${randomBytes(SECRET_BYTES).toString('base64url')}`;

  readonly parse = (credential: string): ParsedCredential | undefined => {
    const match = this.shape.exec(credential);
    return match ? { brand: match[1], environment: match[2] as CredentialEnvironment } : undefined;
  };

  /** What operators see in listings: enough to recognise a credential, never enough to use it. */
  readonly visiblePrefix = (credential: string): string => {
    const parsed = this.parse(credential);
    if (!parsed) throw new Error(`not ${this.noun}`);
    const secretStart = `${parsed.brand}_${this.marker}${parsed.environment}_`.length;
    return `${credential.slice(0, secretStart + VISIBLE_SECRET_CHARS)}…`;
  };
}

/** Credentials are random, never chosen by people, so one SHA-256 round is enough to make a leaked table useless. */
export function hashCredential(credential: string): Buffer {
  return createHash('sha256').update(credential, 'utf8').digest();
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseApiKey, type KeyEnvironment } from '../../../common/keys/api-key';
import { parseReviewerCredential } from '../../../common/reviewers/reviewer-credential';
import type { ConsoleSessionStore } from '../../../common/storage/console-session-store';
import type { StoredConsoleSession } from '../../../common/storage/tables';
import type { Caller, KeyAuthenticator } from '../keys/key-authenticator';
import type { Reviewer, ReviewerAuthenticator } from '../reviewers/reviewer-authenticator';

/** How long a console stays signed in; the credential behind it is checked on every request all the same. */
export const CONSOLE_SESSION_TTL_SECONDS = 8 * 60 * 60;
const TOKEN_BYTES = 32;

/** Who a console is signed in as, as its page shows it (never a secret but the CSRF token it must echo). */
export type ConsoleIdentity =
  | { kind: 'customer'; organization_id: string; environment: KeyEnvironment; csrf_token: string }
  | { kind: 'reviewer'; name: string; environment: KeyEnvironment; csrf_token: string };

/** A live session and who it acts as. */
export type ResolvedSession = { kind: 'customer'; caller: Caller; csrfHash: Buffer } | { kind: 'reviewer'; reviewer: Reviewer; csrfHash: Buffer };

/**
 * The console's sign-in: an API key or a reviewer credential is checked once and exchanged for a
 * random session id (the cookie) and a CSRF token, of which only hashes are stored. The key itself
 * is never kept, by the server or the browser.
 */
export class ConsoleSessions {
  constructor(
    private readonly store: ConsoleSessionStore,
    private readonly keys: KeyAuthenticator,
    private readonly reviewers: ReviewerAuthenticator,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** A new session for a working credential, or undefined. */
  async open(credential: string): Promise<{ cookieValue: string; identity: ConsoleIdentity } | undefined> {
    const opened = await this.authenticate(credential);
    if (!opened) return undefined;
    const cookieValue = randomBytes(TOKEN_BYTES).toString('base64url');
    const csrfToken = randomBytes(TOKEN_BYTES).toString('base64url');
    const now = this.clock();
    const session: StoredConsoleSession = {
      idHash: sha256(cookieValue),
      csrfHash: sha256(csrfToken),
      kind: opened.kind,
      credentialId: opened.kind === 'customer' ? opened.caller.keyId : opened.reviewer.reviewerId,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + CONSOLE_SESSION_TTL_SECONDS * 1000).toISOString(),
    };
    await this.store.deleteExpired(session.createdAt);
    await this.store.create(session);
    return { cookieValue, identity: identityOf(opened, csrfToken) };
  }

  /** The session behind a cookie while it and its credential are live. */
  async resolve(cookieValue: string): Promise<ResolvedSession | undefined> {
    const session = await this.store.find(sha256(cookieValue), this.clock().toISOString());
    if (!session) return undefined;
    if (session.kind === 'customer') {
      const caller = await this.keys.byId(session.credentialId);
      return caller && { kind: 'customer', caller, csrfHash: session.csrfHash };
    }
    const reviewer = await this.reviewers.byId(session.credentialId);
    return reviewer && { kind: 'reviewer', reviewer, csrfHash: session.csrfHash };
  }

  /**
   * Who a live session is, with a new CSRF token (only hashes are kept, so a reloaded page gets a
   * new one; no other site can read this answer or send the SameSite=Strict cookie).
   */
  async refresh(cookieValue: string): Promise<ConsoleIdentity | undefined> {
    const resolved = await this.resolve(cookieValue);
    if (!resolved) return undefined;
    const csrfToken = randomBytes(TOKEN_BYTES).toString('base64url');
    await this.store.replaceCsrfHash(sha256(cookieValue), sha256(csrfToken));
    return identityOf(resolved, csrfToken);
  }

  async close(cookieValue: string): Promise<void> {
    await this.store.delete(sha256(cookieValue));
  }

  private async authenticate(credential: string): Promise<{ kind: 'customer'; caller: Caller } | { kind: 'reviewer'; reviewer: Reviewer } | undefined> {
    if (parseApiKey(credential)) {
      const caller = await this.keys.authenticate(credential);
      return caller && { kind: 'customer', caller };
    }
    if (parseReviewerCredential(credential)) {
      const reviewer = await this.reviewers.authenticate(credential);
      return reviewer && { kind: 'reviewer', reviewer };
    }
    return undefined;
  }
}

/** The token a state-changing request echoes in X-CSRF-Token, checked against the session's hash in constant time. */
export function csrfTokenMatches(presented: string | undefined, csrfHash: Buffer): boolean {
  return typeof presented === 'string' && presented.length > 0 && timingSafeEqual(sha256(presented), csrfHash);
}

function identityOf(opened: { kind: 'customer'; caller: Caller } | { kind: 'reviewer'; reviewer: Reviewer }, csrfToken: string): ConsoleIdentity {
  return opened.kind === 'customer'
    ? { kind: 'customer', organization_id: opened.caller.organizationId, environment: opened.caller.environment, csrf_token: csrfToken }
    : { kind: 'reviewer', name: opened.reviewer.name, environment: opened.reviewer.environment, csrf_token: csrfToken };
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

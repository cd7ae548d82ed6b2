import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { FailedCredentialThrottle, type CredentialAttempt } from '../../../common/credentials/failed-credential-throttle';
import { parseApiKey } from '../../../common/keys/api-key';
import { parseReviewerCredential } from '../../../common/reviewers/reviewer-credential';
import { KeyAuthenticator, type Caller } from '../keys/key-authenticator';
import { ReviewerAuthenticator, type Reviewer } from '../reviewers/reviewer-authenticator';
import { ConsoleSessions, csrfTokenMatches, type ResolvedSession } from '../credentials/console-sessions';
import { CSRF_HEADER, sessionCookieOf } from '../credentials/session-cookie';
import { ApiError } from './api-error';

export type AuthenticatedRequest = FastifyRequest & { caller: Caller };
export type ReviewerRequest = FastifyRequest & { reviewer: Reviewer };

// RFC 9110 §11.1: the scheme is case-insensitive and one or more spaces follow it.
const BEARER = /^Bearer +([^\s]+)$/i;

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * Every non-public route takes one kind of credential: customer routes an API key, review routes a
 * reviewer credential. The other kind is recognised by its shape and refused with 403 before any
 * lookup, so neither can stand in for the other. Without an Authorization header, the console's
 * session cookie stands for the credential it was opened with, and a state-changing request must
 * also echo the session's CSRF token. Failed credentials are throttled per client address
 * (FailedCredentialThrottle): past the throttle a credential is refused with 429 before any lookup.
 */
@Injectable()
export class RequestAuthenticator {
  constructor(
    private readonly keys: KeyAuthenticator,
    private readonly reviewers: ReviewerAuthenticator,
    private readonly sessions: ConsoleSessions,
    private readonly throttle: FailedCredentialThrottle,
  ) {}

  /** The outcome of a credential presented by the request's client, throttled unless `known`; a lookup that fails is 503. */
  async attempt<T>(request: FastifyRequest, check: () => Promise<T | undefined>, known?: () => Promise<boolean>): Promise<CredentialAttempt<T>> {
    return this.throttle.attempt(request.ip, () => this.checked(request, check()), known && (() => this.checked(request, known())));
  }

  /** Whether the store holds this API key or reviewer credential, revoked or not (KnownCredentialHashes). */
  isKnown(presented: string): Promise<boolean> {
    if (parseApiKey(presented)) return this.keys.isKnown(presented);
    if (parseReviewerCredential(presented)) return this.reviewers.isKnown(presented);
    return Promise.resolve(false);
  }

  /** Sets the request's caller (or reviewer), or throws the 401, 403, 429 or 503 to answer. */
  async authenticate(request: AuthenticatedRequest & ReviewerRequest, reviewerRoute: boolean): Promise<void> {
    const header = request.headers.authorization;
    const presented = header ? BEARER.exec(header)?.[1] : undefined;
    const cookie = header === undefined ? sessionCookieOf(request) : undefined;
    if (cookie !== undefined) return this.viaSession(request, cookie, reviewerRoute);
    if (reviewerRoute) {
      if (!presented) throw unauthorized('Send a reviewer credential in the Authorization header, with the scheme Bearer');
      if (parseApiKey(presented)) throw forbidden('A customer API key cannot review assessments; use a reviewer credential (`assay reviewers add`)');
      const reviewer = accepted(await this.attempt(request, () => this.reviewers.authenticate(presented), () => this.reviewers.isKnown(presented)), 'The reviewer credential is invalid or has been revoked');
      request.reviewer = reviewer;
      request.log = request.log.child({ reviewer: reviewer.name, env: reviewer.environment, reviewer_id: reviewer.reviewerId });
      return;
    }
    if (!presented) throw unauthorized('Send an API key in the Authorization header, with the scheme Bearer');
    if (parseReviewerCredential(presented)) throw forbidden('A reviewer credential can only review assessments; customer operations take an API key');
    const caller = accepted(await this.attempt(request, () => this.keys.authenticate(presented), () => this.keys.isKnown(presented)), 'The API key is invalid or has been revoked');
    request.caller = caller;
    request.log = request.log.child({ organisation: caller.organizationId, env: caller.environment, key_id: caller.keyId });
  }

  private async viaSession(request: AuthenticatedRequest & ReviewerRequest, cookie: string, reviewerRoute: boolean): Promise<void> {
    const session: ResolvedSession = accepted(await this.attempt(request, () => this.sessions.resolve(cookie)), 'The console session has ended or its key was revoked; sign in again');
    if (!SAFE_METHODS.has(request.method) && !csrfTokenMatches(request.headers[CSRF_HEADER] as string | undefined, session.csrfHash)) {
      throw forbidden('A change from the console must carry its session\'s X-CSRF-Token');
    }
    if (session.kind === 'reviewer') {
      if (!reviewerRoute) throw forbidden('A reviewer session can only review assessments; customer operations take an API key');
      request.reviewer = session.reviewer;
      request.log = request.log.child({ reviewer: session.reviewer.name, env: session.reviewer.environment, reviewer_id: session.reviewer.reviewerId });
      return;
    }
    if (reviewerRoute) throw forbidden('A customer session cannot review assessments; use a reviewer credential');
    request.caller = session.caller;
    request.log = request.log.child({ org: session.caller.organizationId, env: session.caller.environment, key_id: session.caller.keyId });
  }

  private checked<T>(request: FastifyRequest, lookup: Promise<T>): Promise<T> {
    return lookup.catch((error: unknown) => {
      request.log.error({ err: error }, 'key store unreachable');
      throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Keys cannot be checked right now; retry shortly', { 'retry-after': '2' });
    });
  }
}

/** The identity a credential was accepted as; else the 401 with `refusal`, or the 429 of a throttled client. */
export function accepted<T>(attempt: CredentialAttempt<T>, refusal: string): T {
  const identity = unlessThrottled(attempt);
  if (identity === undefined) throw unauthorized(refusal);
  return identity;
}

/** The identity a credential was accepted as, or nothing if it was refused; the 429 of a throttled client. */
export function unlessThrottled<T>(attempt: CredentialAttempt<T>): T | undefined {
  if (attempt.outcome === 'throttled') {
    throw new ApiError(429, 'RATE_LIMITED', `Too many failed credentials from this client; retry in ${attempt.retryAfterSeconds} s`, {
      'retry-after': String(attempt.retryAfterSeconds),
    });
  }
  return attempt.outcome === 'accepted' ? attempt.identity : undefined;
}

function unauthorized(message: string): ApiError {
  return new ApiError(401, 'UNAUTHORIZED', message, { 'www-authenticate': 'Bearer' });
}

function forbidden(message: string): ApiError {
  return new ApiError(403, 'FORBIDDEN', message);
}

import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { parseApiKey } from '../../common/keys/api-key';
import { parseReviewerCredential } from '../../common/reviewers/reviewer-credential';
import { KeyAuthenticator, type Caller } from '../keys/key-authenticator';
import { ReviewerAuthenticator, type Reviewer } from '../reviewers/reviewer-authenticator';
import { ConsoleSessions, csrfTokenMatches, type ResolvedSession } from '../console/console-sessions';
import { CSRF_HEADER, sessionCookieOf } from '../console/session-cookie';
import { ApiError } from './api-error';

const PUBLIC_ROUTE = Symbol('public-route');
const REVIEWER_ROUTE = Symbol('reviewer-route');

/** Marks a route (health, docs) that needs no API key. */
export const PublicRoute = () => SetMetadata(PUBLIC_ROUTE, true);

/** Marks a route served to reviewer credentials only: a customer's API key is refused there. */
export const ReviewerRoute = () => SetMetadata(REVIEWER_ROUTE, true);

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
 * also echo the session's CSRF token.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly keys: KeyAuthenticator,
    private readonly reviewers: ReviewerAuthenticator,
    private readonly sessions: ConsoleSessions,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & ReviewerRequest>();
    const header = request.headers.authorization;
    const presented = header ? BEARER.exec(header)?.[1] : undefined;
    const reviewerRoute = this.reflector.getAllAndOverride<boolean>(REVIEWER_ROUTE, targets) === true;
    const cookie = header === undefined ? sessionCookieOf(request) : undefined;
    if (cookie !== undefined) return this.viaSession(request, cookie, reviewerRoute);
    if (reviewerRoute) {
      if (!presented) throw unauthorized('Send a reviewer credential in the Authorization header, with the Bearer scheme');
      if (parseApiKey(presented)) throw forbidden('A customer API key cannot review assessments; use a reviewer credential (`assay reviewers add`)');
      const reviewer = await this.checked(request, this.reviewers.authenticate(presented));
      if (!reviewer) throw unauthorized('The reviewer credential is invalid or has been revoked');
      request.reviewer = reviewer;
      request.log = request.log.child({ reviewer: reviewer.name, env: reviewer.environment, reviewer_id: reviewer.reviewerId });
      return true;
    }
    if (!presented) throw unauthorized('Send an API key in the Authorization header, with the Bearer scheme');
    if (parseReviewerCredential(presented)) throw forbidden('A reviewer credential can only review assessments; customer operations take an API key');
    const caller = await this.checked(request, this.keys.authenticate(presented));
    if (!caller) throw unauthorized('The API key is invalid or has been revoked');
    request.caller = caller;
    request.log = request.log.child({ organisation: caller.organizationId, env: caller.environment, key_id: caller.keyId });
    return true;
  }

  private async viaSession(request: AuthenticatedRequest & ReviewerRequest, cookie: string, reviewerRoute: boolean): Promise<boolean> {
    const session: ResolvedSession | undefined = await this.checked(request, this.sessions.resolve(cookie));
    if (!session) throw unauthorized('The console session has ended or its key was revoked; sign in again');
    if (!SAFE_METHODS.has(request.method) && !csrfTokenMatches(request.headers[CSRF_HEADER] as string | undefined, session.csrfHash)) {
      throw forbidden('A change from the console must carry its session\'s X-CSRF-Token');
    }
    if (session.kind === 'reviewer') {
      if (!reviewerRoute) throw forbidden('A reviewer session can only review assessments; customer operations take an API key');
      request.reviewer = session.reviewer;
      request.log = request.log.child({ reviewer: session.reviewer.name, env: session.reviewer.environment, reviewer_id: session.reviewer.reviewerId });
      return true;
    }
    if (reviewerRoute) throw forbidden('A customer session cannot review assessments; use a reviewer credential');
    request.caller = session.caller;
    request.log = request.log.child({ org: session.caller.organizationId, env: session.caller.environment, key_id: session.caller.keyId });
    return true;
  }

  private checked<T>(request: FastifyRequest, lookup: Promise<T>): Promise<T> {
    return lookup.catch((error: unknown) => {
      request.log.error({ err: error }, 'key store unreachable');
      throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Keys cannot be checked right now; retry shortly', { 'retry-after': '2' });
    });
  }
}

function unauthorized(message: string): ApiError {
  return new ApiError(401, 'UNAUTHORIZED', message, { 'www-authenticate': 'Bearer' });
}

function forbidden(message: string): ApiError {
  return new ApiError(403, 'FORBIDDEN', message);
}

import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { parseApiKey } from '../../common/keys/api-key';
import { parseReviewerCredential } from '../../common/reviewers/reviewer-credential';
import { KeyAuthenticator, type Caller } from '../keys/key-authenticator';
import { ReviewerAuthenticator, type Reviewer } from '../reviewers/reviewer-authenticator';
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

/**
 * Every non-public route takes one kind of credential: customer routes an API key, review routes a
 * reviewer credential. The other kind is recognised by its shape and refused with 403 before any
 * lookup, so neither can stand in for the other.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly keys: KeyAuthenticator,
    private readonly reviewers: ReviewerAuthenticator,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & ReviewerRequest>();
    const header = request.headers.authorization;
    const presented = header ? BEARER.exec(header)?.[1] : undefined;
    if (this.reflector.getAllAndOverride<boolean>(REVIEWER_ROUTE, targets)) {
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
    request.log = request.log.child({ org: caller.organizationId, env: caller.environment, key_id: caller.keyId });
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

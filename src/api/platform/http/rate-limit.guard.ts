import { applyDecorators, Injectable, Optional, SetMetadata, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { ApiError } from './api-error';
import type { AuthenticatedRequest } from './request-authenticator';
import type { Caller } from '../keys/key-authenticator';
import { rateLimitHeaders } from './rate-limit-headers';
import { CreateRateLimits, type RateLimitOutcome } from './rate-limit';

const LENDS_SPARE_CAPACITY = 'assay:lends-spare-capacity';

/** Decides whether a create the limits refused may go in anyway: the capacity a lone organisation leaves idle (admission provides it). */
export abstract class CreateLimitLender {
  abstract lends(environment: Caller['environment'], organizationId: string): Promise<boolean>;
}

/**
 * Spends one token of the caller's key on a create (or an erasure), then one of its organisation's
 * in that environment. Runs after the credential was checked (authenticate-before-body.ts), so the caller is known.
 * Polls are never routed here: the API contract makes a client stop at the first non-success
 * poll, so limiting GETs would break well-behaved clients.
 */
@Injectable()
export class CreateRateLimitGuard implements CanActivate {
  constructor(
    private readonly limits: CreateRateLimits,
    private readonly reflector: Reflector,
    @Optional() private readonly lender?: CreateLimitLender,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const caller = request.caller;
    if (!caller) throw new Error('@RateLimited() is for authenticated routes only');
    const outcomes = await spend(this.limits, caller.keyId, `${caller.environment}/${caller.organizationId}`, request);
    const refused = outcomes.find(([, decision]) => !decision.allowed);
    if (refused && !(await this.lent(context, caller))) {
      const [limit, decision] = refused;
      const refusal = limit === this.limits.perKey ? 'Too many creates and erasures with this API key' : 'Too many creates and erasures for this organisation in this environment';
      throw new ApiError(429, 'RATE_LIMITED', `${refusal}; retry in ${decision.secondsUntilNext} s`, {
        ...rateLimitHeaders(outcomes),
        'retry-after': String(decision.secondsUntilNext),
      });
    }
    void http.getResponse<FastifyReply>().headers(rateLimitHeaders(outcomes));
    return true;
  }

  private lent(context: ExecutionContext, caller: Caller): Promise<boolean> {
    if (!this.lender || !this.reflector.get<boolean>(LENDS_SPARE_CAPACITY, context.getHandler())) return Promise.resolve(false);
    return this.lender.lends(caller.environment, caller.organizationId);
  }
}

// Fails closed, as the key check does: a create nobody could count must not slip past the limit.
async function spend(limits: CreateRateLimits, keyPartition: string, organisationPartition: string, request: AuthenticatedRequest): Promise<RateLimitOutcome[]> {
  return limits.spend(keyPartition, organisationPartition).catch((error: unknown) => {
    request.log.error({ err: error }, 'rate limit store unreachable');
    throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The create limit cannot be checked right now; retry shortly', { 'retry-after': '2' });
  });
}

/**
 * Puts a create route under the create limits: per key (RATE_LIMIT_CREATES_PER_MINUTE / _BURST)
 * and per organisation and environment (RATE_LIMIT_ORGANISATION_CREATES_PER_MINUTE / _BURST).
 * Erasures spend from the same buckets: each costs Temporal a create's work or more. With
 * `lendsSpareCapacity`, a create over them is still admitted while its organisation is alone and
 * the service has room (CreateLimitLender): the limits are each organisation's share under
 * contention, not a ceiling on an idle service.
 */
export const RateLimited = ({ lendsSpareCapacity = false }: { lendsSpareCapacity?: boolean } = {}) =>
  applyDecorators(SetMetadata(LENDS_SPARE_CAPACITY, lendsSpareCapacity), UseGuards(CreateRateLimitGuard));

import { Injectable, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError } from './api-error';
import type { AuthenticatedRequest } from './auth.guard';
import { rateLimitHeaders } from './rate-limit-headers';
import { CreateRateLimiter } from './rate-limit';

/**
 * Spends one token of the caller's key on a create. Runs after the global AuthGuard (global guards
 * come first), so the caller is known. Polls are never routed here: the API contract makes a client stop
 * at the first non-success poll, so limiting GETs would break well-behaved clients.
 */
@Injectable()
export class CreateRateLimitGuard implements CanActivate {
  constructor(private readonly limiter: CreateRateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const caller = request.caller;
    if (!caller) throw new Error('@RateLimited() is for authenticated routes only');
    // Fails closed, as the key check does: a create nobody could count must not slip past the limit.
    const decision = await Promise.resolve()
      .then(() => this.limiter.take(caller.keyId))
      .catch((error: unknown) => {
        request.log.error({ err: error }, 'rate limit store unreachable');
        throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The create limit cannot be checked right now; retry shortly', { 'retry-after': '2' });
      });
    const headers = rateLimitHeaders(this.limiter, decision);
    if (!decision.allowed) {
      throw new ApiError(429, 'RATE_LIMITED', `Too many creates with this API key; retry in ${decision.secondsUntilNext} s`, {
        ...headers,
        'retry-after': String(decision.secondsUntilNext),
      });
    }
    void http.getResponse<FastifyReply>().headers(headers);
    return true;
  }
}

/** Puts a create route under the per-key create limit (RATE_LIMIT_CREATES_PER_MINUTE / _BURST). */
export const RateLimited = () => UseGuards(CreateRateLimitGuard);

import { Injectable, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError } from './api-error';
import type { AuthenticatedRequest } from './auth.guard';
import { rateLimitHeaders } from './rate-limit-headers';
import { CreateRateLimiter } from './rate-limit';

/**
 * Spends one token of the caller's key on a create. Runs after the global AuthGuard (global guards
 * come first), so the caller is known. Polls are never routed here: spec §7 makes a client stop
 * at the first non-success poll, so limiting GETs would break well-behaved clients.
 */
@Injectable()
export class CreateRateLimitGuard implements CanActivate {
  constructor(private readonly limiter: CreateRateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const { caller } = http.getRequest<AuthenticatedRequest>();
    if (!caller) throw new Error('@RateLimited() is for authenticated routes only');
    const decision = await this.limiter.take(caller.keyId);
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

import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { KeyAuthenticator, type Caller } from '../keys/key-authenticator';
import { ApiError } from './api-error';

const PUBLIC_ROUTE = Symbol('public-route');

/** Marks a route (health, docs) that needs no API key. */
export const PublicRoute = () => SetMetadata(PUBLIC_ROUTE, true);

export type AuthenticatedRequest = FastifyRequest & { caller: Caller };

// RFC 9110 §11.1: the scheme is case-insensitive and one or more spaces follow it.
const BEARER = /^Bearer +([^\s]+)$/i;

@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly authenticator: KeyAuthenticator,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    const match = header ? BEARER.exec(header) : null;
    if (!match) throw unauthorized('Send an API key in the Authorization header, with the Bearer scheme');
    const caller = await this.authenticator.authenticate(match[1]).catch((error: unknown) => {
      request.log.error({ err: error }, 'key store unreachable');
      throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Keys cannot be checked right now; retry shortly', { 'retry-after': '2' });
    });
    if (!caller) throw unauthorized('The API key is invalid or has been revoked');
    request.caller = caller;
    request.log = request.log.child({ organisation: caller.organizationId, env: caller.environment, key_id: caller.keyId });
    return true;
  }
}

function unauthorized(message: string): ApiError {
  return new ApiError(401, 'UNAUTHORIZED', message, { 'www-authenticate': 'Bearer' });
}

import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Caller } from '../keys/key-authenticator';
import type { AuthenticatedRequest } from './request-authenticator';

/** The organisation and environment the request's API key belongs to (set by RequestAuthenticator). */
export const CurrentCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Caller => context.switchToHttp().getRequest<AuthenticatedRequest>().caller,
);

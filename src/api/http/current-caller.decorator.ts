import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Caller } from '../keys/key-authenticator';
import type { AuthenticatedRequest } from './auth.guard';

/** The organisation and environment the request's API key belongs to (set by AuthGuard). */
export const CurrentCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Caller => context.switchToHttp().getRequest<AuthenticatedRequest>().caller,
);

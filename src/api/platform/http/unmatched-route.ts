import { NotFoundException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from './api-error';
import type { ApiRoutes } from './api-routes';

/** Nest's answer when the router matched no route: a NotFoundException on a request without a route. */
export function isUnmatchedRoute(error: unknown, request: FastifyRequest): boolean {
  return error instanceof NotFoundException && request.routeOptions.url === undefined;
}

/** RFC 9110 §15.5.6: a path that exists with other methods is 405 with Allow, not 404. */
export function unmatchedRouteError(request: FastifyRequest, routes: ApiRoutes): ApiError {
  const allowed = routes.allowedMethods(request.url.split('?')[0]);
  if (allowed.length === 0) return new ApiError(404, 'NOT_FOUND', 'No such route');
  return new ApiError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed here; this path allows ${allowed.join(', ')}`, { allow: allowed.join(', ') });
}

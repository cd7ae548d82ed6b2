import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { redactApiKeys } from '../../../common/logging/redact-keys';
import type { ErrorBody } from '../../../contract/wire/error-body';
import { ApiError } from './api-error';
import { ApiRoutes } from './api-routes';
import { toApiError } from './error-mapping';
import { isUnmatchedRoute, unmatchedRouteError } from './unmatched-route';

/**
 * The single place where a thrown error becomes the one error body (docs/api.md, Errors). Nest's
 * Fastify adapter routes Fastify's own errors (body parsing, hooks, unknown routes) here too.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(private readonly routes: ApiRoutes) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const apiError = isUnmatchedRoute(error, request) ? unmatchedRouteError(request, this.routes) : toApiError(error);
    // A 5xx the code chose (shutting down, not ready, unconfirmed) is an answer, and whoever threw it
    // logged its cause; only a failure nothing anticipated is an error worth a stack.
    if (apiError.status >= 500 && error instanceof ApiError) request.log.warn({ code: apiError.code, status: apiError.status }, 'request refused');
    else if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    // Messages may quote what the client sent (an id, a task type); a key pasted there never comes back.
    const body: ErrorBody = { error: { code: apiError.code, message: redactApiKeys(apiError.message), request_id: String(request.id) } };
    void http.getResponse<FastifyReply>().status(apiError.status).headers(apiError.headers).type('application/json; charset=utf-8').send(body);
  }
}

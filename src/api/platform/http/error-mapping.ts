import { HttpException } from '@nestjs/common';
import { isDatabaseUnavailable } from '../storage/database-errors';
import { isTemporalUnavailable } from '../temporal/temporal-errors';
import { ApiError } from './api-error';

const FASTIFY_ERRORS: Record<string, ApiError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'),
  FST_ERR_CTP_EMPTY_JSON_BODY: ApiError.invalidRequest('The request body is empty; send a JSON object'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ApiError.invalidRequest('Content-Length does not match the body'),
};

/**
 * Maps anything thrown while serving a request to the one client-facing error shape. A dependency
 * that cannot answer now is 503 with Retry-After wherever in a route it was called, so no route
 * answers 500 for an outage.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isTemporalUnavailable(error)) return ApiError.serviceUnavailable('The workflow engine');
  if (isDatabaseUnavailable(error)) return ApiError.serviceUnavailable('The database');
  if (error instanceof HttpException) return fromHttpException(error);
  const fastifyError = error as { code?: string; statusCode?: number };
  const known = fastifyError.code ? FASTIFY_ERRORS[fastifyError.code] : undefined;
  if (known) return known;
  if (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return ApiError.invalidRequest('The request body is not valid JSON');
  }
  if (fastifyError.statusCode === 400) return ApiError.invalidRequest('The request is malformed');
  if (fastifyError.statusCode === 413) return FASTIFY_ERRORS.FST_ERR_CTP_BODY_TOO_LARGE;
  if (fastifyError.statusCode === 415) return FASTIFY_ERRORS.FST_ERR_CTP_INVALID_MEDIA_TYPE;
  return new ApiError(500, 'INTERNAL', 'An internal error occurred; it has been logged');
}

function fromHttpException(error: HttpException): ApiError {
  const status = error.getStatus();
  if (status === 404) return new ApiError(404, 'NOT_FOUND', 'No such route');
  if (status === 405) return new ApiError(405, 'INVALID_REQUEST', 'Method not allowed on this route');
  if (status === 413) return FASTIFY_ERRORS.FST_ERR_CTP_BODY_TOO_LARGE;
  if (status === 415) return FASTIFY_ERRORS.FST_ERR_CTP_INVALID_MEDIA_TYPE;
  if (status >= 400 && status < 500) return new ApiError(status, 'INVALID_REQUEST', error.message);
  return new ApiError(500, 'INTERNAL', 'An internal error occurred; it has been logged');
}

import { HttpCode, RequestMethod, RequestMapping, SetMetadata, UseGuards, applyDecorators, type Type } from '@nestjs/common';
import type { ApiOperation } from '../openapi/api-operation';
import { EncryptionRequiredGuard, refusedWithoutEncryption } from './encryption-required.guard';

const API_ROUTE = Symbol('api-route');

const NEST_METHODS: Record<ApiOperation['method'], RequestMethod> = {
  get: RequestMethod.GET,
  post: RequestMethod.POST,
  put: RequestMethod.PUT,
  patch: RequestMethod.PATCH,
  delete: RequestMethod.DELETE,
};

/**
 * Serves a handler at the operation's method and path, answering its first response's status,
 * and keeps the operation on the handler: the OpenAPI document and the 405 Allow header are
 * built from these, so a route cannot be served without being documented or the reverse; so is
 * the refusal of production data without encryption keys (refusedWithoutEncryption).
 * Controllers use this instead of @Get/@Post (eslint forbids those in src/api).
 */
export function ApiRoute(operation: ApiOperation): MethodDecorator {
  return applyDecorators(
    SetMetadata(API_ROUTE, operation),
    RequestMapping({ path: nestPath(operation.path), method: NEST_METHODS[operation.method] }),
    HttpCode(operation.responses[0].status),
    ...(refusedWithoutEncryption(operation) ? [UseGuards(EncryptionRequiredGuard)] : []),
  );
}

/** The operations a controller class serves, in declaration order. */
export function operationsOf(controller: Type): ApiOperation[] {
  const prototype = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype).flatMap((name) => {
    const handler = prototype[name];
    const operation = typeof handler === 'function' ? (Reflect.getMetadata(API_ROUTE, handler) as ApiOperation | undefined) : undefined;
    return operation ? [operation] : [];
  });
}

/** A parameter in an OpenAPI path, `{task_id}`; its name is the first group. */
export const PATH_PARAMETER = /\{([a-z0-9_]+)\}/g;

/**
 * /v1/ai/tasks/{task_id} → /v1/ai/tasks/:taskId. Route parameters keep the camelCase names the
 * handlers and the metrics' route label (README) have always used; clients see only the OpenAPI form.
 */
export function nestPath(openApiPath: string): string {
  return openApiPath.replace(PATH_PARAMETER, (_whole, name: string) => `:${name.replace(/_([a-z0-9])/g, (_underscore, letter: string) => letter.toUpperCase())}`);
}

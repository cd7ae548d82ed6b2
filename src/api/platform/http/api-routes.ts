import { Global, Injectable, Module, type Type } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import type { ApiOperation } from '../openapi/api-operation';
import { PATH_PARAMETER, nestPath, operationsOf } from './api-route';

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Every operation the app's controllers serve, read from their @ApiRoute declarations. */
@Injectable()
export class ApiRoutes {
  private found?: Array<{ operation: ApiOperation; path: RegExp }>;
  private byRoute?: Map<string, ApiOperation>;

  constructor(private readonly discovery: DiscoveryService) {}

  get operations(): ApiOperation[] {
    return this.routes().map(({ operation }) => operation);
  }

  /** The methods a request path has, in the Allow header's order (HEAD with GET, as Fastify serves it); none for an unknown path. */
  allowedMethods(path: string): string[] {
    const methods = new Set(this.routes().flatMap(({ operation, path: pattern }) => (pattern.test(path) ? [operation.method.toUpperCase()] : [])));
    if (methods.has('GET')) methods.add('HEAD');
    return METHOD_ORDER.filter((method) => methods.has(method));
  }

  /** The operation a matched route serves, by the method and the route's path as the router knows it (`/v1/ai/tasks/:taskId`); HEAD is its GET. */
  operationServing(method: string, routeUrl: string): ApiOperation | undefined {
    this.byRoute ??= new Map(this.operations.map((operation) => [`${operation.method.toUpperCase()} ${nestPath(operation.path)}`, operation]));
    return this.byRoute.get(`${method === 'HEAD' ? 'GET' : method} ${routeUrl}`);
  }

  private routes(): Array<{ operation: ApiOperation; path: RegExp }> {
    this.found ??= this.discovery
      .getControllers()
      .flatMap((wrapper) => (wrapper.metatype ? operationsOf(wrapper.metatype as Type) : []))
      .map((operation) => ({ operation, path: pathPattern(operation.path) }));
    return this.found;
  }
}

/** /v1/ai/tasks/{task_id} matches /v1/ai/tasks/<one segment>, as the router does. */
function pathPattern(openApiPath: string): RegExp {
  const escaped = openApiPath.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(PATH_PARAMETER, '[^/]+')}$`);
}

/** Global: the exception filter (405) and the OpenAPI controller both read the routes. */
@Global()
@Module({ imports: [DiscoveryModule], providers: [ApiRoutes], exports: [ApiRoutes] })
export class ApiRoutesModule {}

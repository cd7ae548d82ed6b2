import { Global, Injectable, Module, type Type } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import type { ApiOperation } from '../openapi/api-operation';
import { operationsOf } from './api-route';

/** Every operation the app's controllers serve, read from their @ApiRoute declarations. */
@Injectable()
export class ApiRoutes {
  private found?: ApiOperation[];

  constructor(private readonly discovery: DiscoveryService) {}

  get operations(): ApiOperation[] {
    this.found ??= this.discovery.getControllers().flatMap((wrapper) => (wrapper.metatype ? operationsOf(wrapper.metatype as Type) : []));
    return this.found;
  }
}

/** Global: the exception filter (405) and the OpenAPI controller both read the routes. */
@Global()
@Module({ imports: [DiscoveryModule], providers: [ApiRoutes], exports: [ApiRoutes] })
export class ApiRoutesModule {}

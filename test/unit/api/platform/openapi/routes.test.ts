import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiApp } from '../../../../../src/api/create-api-app';
import { ApiRoutes } from '../../../../../src/api/platform/http/api-routes';
import { nestPath } from '../../../../../src/api/platform/http/api-route';
import { AppConfig } from '../../../../../src/common/config/app-config';
import { API_OPERATIONS } from '../../../../support/api-operations';

let app: NestFastifyApplication;
let dataDir: string;
const served: string[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-routes-'));
  // Temporal is never called: the connection is lazy and no request is made.
  app = await createApiApp(new AppConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', TEMPORAL_ADDRESS: '127.0.0.1:1' }));
  app.getHttpAdapter().getInstance().addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // Fastify adds a HEAD route beside every GET by itself; it is not an operation of the API.
    for (const method of methods) if (method !== 'HEAD') served.push(`${method} ${route.url}`);
  });
  await app.init();
});

afterAll(async () => {
  await app?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function routeKeys(operations: typeof API_OPERATIONS): string[] {
  return operations.map((operation) => `${operation.method.toUpperCase()} ${nestPath(operation.path)}`).sort();
}

describe('routes are declared once', () => {
  it('serves exactly the routes the controllers declare with @ApiRoute, so every served route is documented', () => {
    expect(served).toContain('POST /v1/ai/tasks');
    expect([...served].sort()).toEqual(routeKeys(app.get(ApiRoutes).operations));
  });

  it('gives the unit tests the same operations as the app', () => {
    expect(routeKeys(API_OPERATIONS)).toEqual(routeKeys(app.get(ApiRoutes).operations));
  });

  it('keeps the route parameter names of the metrics route label', () => {
    expect(nestPath('/v1/webhook-endpoints/{endpoint_id}/rotate-secret')).toBe('/v1/webhook-endpoints/:endpointId/rotate-secret');
    expect(served).toContain('GET /v1/ai/tasks/:taskId');
  });
});

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiApp } from '../../../../src/api/create-api-app';
import { AppConfig } from '../../../../src/common/config/app-config';
import { API_OPERATIONS } from '../../../../src/api/openapi/operations';

/** "GET /v1/ai/tasks/{}" for both Nest's /v1/ai/tasks/:taskId and OpenAPI's /v1/ai/tasks/{task_id}. */
function routeKey(method: string, url: string): string {
  return `${method.toUpperCase()} ${url.replace(/:[A-Za-z0-9_]+|\{[A-Za-z0-9_]+\}/g, '{}')}`;
}

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
    for (const method of methods) if (method !== 'HEAD') served.push(routeKey(method, route.url));
  });
  await app.init();
});

afterAll(async () => {
  await app?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the OpenAPI operations follow the routes the API serves', () => {
  it('finds the routes Nest registered', () => {
    expect(served).toContain('POST /v1/ai/tasks');
  });

  it('documents every route the API serves', () => {
    const documented = new Set(API_OPERATIONS.map((operation) => routeKey(operation.method, operation.path)));
    expect(served.filter((route) => !documented.has(route))).toEqual([]);
  });

  it('documents no route the API does not serve', () => {
    const routes = new Set(served);
    expect(API_OPERATIONS.map((operation) => routeKey(operation.method, operation.path)).filter((route) => !routes.has(route))).toEqual([]);
  });
});

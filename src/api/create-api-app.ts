import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ulid } from 'ulid';
import type { AppConfig } from '../config/app-config';
import { ApiError } from '../http/api-error';
import { createLogger } from '../logging/create-logger';
import { AppModule } from './app.module';

// JSON escaping can make a body several times larger than the text it carries; input.text's own
// byte limit is checked after parsing, this only stops absurd bodies before they are read.
const BODY_OVERHEAD_FACTOR = 2;
const BODY_OVERHEAD_BYTES = 64 * 1024;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Builds the HTTP API (not listening yet); main.ts and the tests share it. */
export async function createApiApp(config: AppConfig): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    loggerInstance: createLogger(config.values.LOG_LEVEL, 'assay-api'),
    genReqId: () => `req_${ulid()}`,
    requestIdHeader: false,
    bodyLimit: config.values.MAX_TEXT_BYTES * BODY_OVERHEAD_FACTOR + BODY_OVERHEAD_BYTES,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config), adapter, {
    logger: ['error', 'warn'],
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    void reply.header('x-request-id', request.id);
    void reply.header('cache-control', 'no-store');
    if (BODY_METHODS.has(request.method) && hasBody(request) && !isJson(request.headers['content-type'])) {
      throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
    }
  });
  app.enableShutdownHooks();
  return app;
}

/** Action routes such as cancel take no body; they need no Content-Type either. */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function isJson(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';')[0].trim().toLowerCase();
  return mediaType === 'application/json';
}

import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import { MAX_ASSESSMENT_BODY_BYTES } from '../contract/wire/assessment-limits';
import { BATCH_ROUTES } from './batches/batch.routes';
import type { AppConfig } from '../common/config/app-config';
import { trustedHop } from '../common/config/trust-proxy';
import { ApiError } from './platform/http/api-error';
import { answerClientError, answerFrameworkError, answerUnsupportedExpectation, newRequestId } from './platform/http/outside-pipeline-errors';
import { exposeRepeatedHeaders } from './platform/http/repeated-headers';
import { MAX_URL_BYTES, urlTooLong } from './platform/http/request-line';
import { registerStrictJsonBody } from './platform/http/strict-json-body';
import { readOversizedBodiesBeforeAnswering } from './platform/http/oversized-body';
import { authenticateBeforeBody } from './platform/http/authenticate-before-body';
import { ApiRoutes } from './platform/http/api-routes';
import { RequestAuthenticator } from './platform/http/request-authenticator';
import { createLogger } from '../common/logging/create-logger';
import { nestLogger } from '../common/logging/nest-logger';
import type { Tracing } from '../common/tracing/start-tracing';
import { bindRequestLogContext } from './platform/http/request-log-context';
import { traceHttpRequests } from './platform/http/http-server-spans';
import { ApiMetrics } from './platform/metrics/api-metrics';
import { recordHttpMetrics } from './platform/metrics/http-metrics.hook';
import { AppModule } from './app.module';
import { closeConnectionsOnShutdown } from './close-connections-on-shutdown';

// JSON escaping can make a body several times larger than the text it carries; input.text's own
// byte limit is checked after parsing, this only stops absurd bodies before they are read.
const BODY_OVERHEAD_FACTOR = 2;
const BODY_OVERHEAD_BYTES = 64 * 1024;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

// The methods of RFC 9110 §9 and PATCH (RFC 5789). A path without one of them is 405; any other
// method Node lets through (QUERY, PROPFIND, …) is 501 wherever it is sent.
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

// A socket silent this long mid-exchange is dropped. Longer than Fastify's keep-alive timeout
// (72 s, chosen to outlast load balancers' 60 s idle) so idle keep-alive sockets still close
// the polite way.
const CONNECTION_TIMEOUT_MS = 120_000;

export interface ApiAppOptions {
  /** Where request logs go (default stdout); tests capture them here. */
  logDestination?: DestinationStream;
  /** The process's started tracing (main.ts): requests become server spans, flushed on close. */
  tracing?: Tracing;
}

/** Builds the HTTP API (not listening yet); main.ts and the tests share it. */
export async function createApiApp(config: AppConfig, options: ApiAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = createLogger(config.values.LOG_LEVEL, 'api', options.logDestination);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    // A request (headers and the largest allowed body) must arrive within REQUEST_TIMEOUT_MS,
    // default 30 s: ~1 MiB at 35 KB/s, yet short enough that slow-loris clients cannot hoard
    // sockets. Node checks on an interval, so it is a tenth of the timeout to enforce it closely.
    requestTimeout: config.values.REQUEST_TIMEOUT_MS,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    http: {
      requestTimeout: config.values.REQUEST_TIMEOUT_MS,
      headersTimeout: config.values.REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: config.values.REQUEST_TIMEOUT_MS / 10,
    },
    genReqId: newRequestId,
    requestIdHeader: false,
    // request.protocol, request.host and request.ip (the console's Origin check and cookies, the
    // request logs) read X-Forwarded-* only from a trusted proxy, and not at all by default.
    trustProxy: trustedHop(config.values.TRUST_PROXY),
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    // One limit for every route: the larger of what a task's text and an assessment's graph need.
    bodyLimit: Math.max(config.values.MAX_TEXT_BYTES * BODY_OVERHEAD_FACTOR + BODY_OVERHEAD_BYTES, MAX_ASSESSMENT_BODY_BYTES),
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // closeConnectionsOnShutdown answers requests that arrive while closing, with the error body.
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config), adapter, {
    logger: nestLogger(logger),
    abortOnError: false,
    // JSON is the only body the API takes, and it is parsed strictly (registerStrictJsonBody).
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // A batch carries many texts: its route alone takes bodies up to MAX_BATCH_BYTES. Routes are
  // registered when the app initialises, after this hook.
  fastify.addHook('onRoute', (route) => {
    if (route.url === BATCH_ROUTES.create.path && route.method === 'POST') route.bodyLimit = config.values.MAX_BATCH_BYTES;
  });
  registerStrictJsonBody(fastify);
  readOversizedBodiesBeforeAnswering(fastify);
  fastify.server.on('checkExpectation', answerUnsupportedExpectation);
  // First, so that every later hook, guard and handler of the request runs inside its span.
  if (options.tracing) {
    const tracing = options.tracing;
    traceHttpRequests(fastify);
    // The last spans (and the close's own) are flushed once the server has stopped.
    fastify.addHook('onClose', () => tracing.shutdown());
  }
  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    void reply.header('x-request-id', request.id);
    void reply.header('cache-control', 'no-store');
    exposeRepeatedHeaders(request);
    if (!KNOWN_METHODS.has(request.method)) throw new ApiError(501, 'NOT_IMPLEMENTED', `The ${request.method} method is not implemented`);
    if (request.raw.url && request.raw.url.length > MAX_URL_BYTES) throw urlTooLong();
    if (BODY_METHODS.has(request.method) && hasBody(request) && !isJson(request.headers['content-type'])) {
      throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
    }
  });
  authenticateBeforeBody(fastify, app.get(RequestAuthenticator), app.get(ApiRoutes));
  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    bindRequestLogContext(request, reply);
    return payload;
  });
  recordHttpMetrics(fastify, app.get(ApiMetrics));
  // On SIGTERM: stop accepting connections, answer 503 on kept-alive ones, finish requests in flight.
  closeConnectionsOnShutdown(fastify);
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

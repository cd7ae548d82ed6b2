import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Span } from '@opentelemetry/api';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE, ATTR_URL_PATH } from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UNMATCHED_ROUTE } from '../metrics/http-metrics.hook';

/** The span attribute that holds the response's X-Request-Id, so either id finds the other. */
export const REQUEST_ID_ATTRIBUTE = 'assay.request_id';

const spans = new WeakMap<FastifyRequest, Span>();

/**
 * One SERVER span per request, continuing a caller's W3C traceparent when it sent one. The rest of
 * the request (guards, controllers, the Temporal client's StartWorkflow span) runs inside the
 * span's context: the hook hands Fastify its continuation from within that context. The request's
 * log lines carry trace_id and span_id beside request_id.
 */
export function traceHttpRequests(fastify: FastifyInstance): void {
  const tracer = trace.getTracer('assay-api');
  fastify.addHook('onRequest', (request, _reply, done) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(
      request.method,
      { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: request.method, [ATTR_URL_PATH]: (request.raw.url ?? '').split('?')[0], [REQUEST_ID_ATTRIBUTE]: request.id } },
      parent,
    );
    spans.set(request, span);
    const { traceId, spanId } = span.spanContext();
    request.log = request.log.child({ trace_id: traceId, span_id: spanId });
    context.with(trace.setSpan(parent, span), done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (span) {
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      span.updateName(`${request.method} ${route}`);
      span.setAttributes({ [ATTR_HTTP_ROUTE]: route, [ATTR_HTTP_RESPONSE_STATUS_CODE]: reply.statusCode });
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}

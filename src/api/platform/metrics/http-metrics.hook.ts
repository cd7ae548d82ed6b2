import type { FastifyInstance } from 'fastify';
import type { ApiMetrics } from './api-metrics';

/** What requests that matched no route are counted under, instead of their raw URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Observes every response's latency under its route template (never the raw URL, which would let clients mint label values). */
export function recordHttpMetrics(fastify: FastifyInstance, metrics: ApiMetrics): void {
  fastify.addHook('onResponse', async (request, reply) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status_code: String(reply.statusCode) };
    metrics.httpRequestDuration.observe(labels, reply.elapsedTime / 1000);
  });
}

import type { FastifyInstance } from 'fastify';
import { ApiError } from './platform/http/api-error';

/**
 * On close Fastify refuses new connections and ends the idle ones, but a connection whose request
 * was still in flight stays open after its response as an idle keep-alive socket, and the process
 * would wait out the keep-alive timeout (72 s) before exiting. So while closing, every response
 * says `Connection: close` and its socket ends with it. A request that still arrives on such a
 * connection is refused with 503 and the error body (Fastify's own 503 has another shape), so the
 * client retries on another instance.
 */
export function closeConnectionsOnShutdown(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onRequest', async () => {
    if (closing) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'This instance is shutting down; retry', { 'retry-after': '1' });
  });
  fastify.addHook('onSend', async (_request, reply, payload) => {
    if (closing) void reply.header('connection', 'close');
    return payload;
  });
}

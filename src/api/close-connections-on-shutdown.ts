import type { FastifyInstance } from 'fastify';

/**
 * On close Fastify refuses new connections and ends the idle ones, but a connection whose request
 * was still in flight stays open after its response as an idle keep-alive socket, and the process
 * would wait out the keep-alive timeout (72 s) before exiting. So while closing, every response
 * says `Connection: close` and its socket ends with it.
 */
export function closeConnectionsOnShutdown(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onSend', async (_request, reply, payload) => {
    if (closing) void reply.header('connection', 'close');
    return payload;
  });
}

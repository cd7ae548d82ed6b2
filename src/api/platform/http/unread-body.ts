import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * How much of a refused request's unread body is still read, so the client can finish sending and
 * read the answer on a connection kept open. A larger body, or one sent chunked, gets its answer
 * with `Connection: close`, and the connection closes however much the client still had to send.
 */
export const MAX_BODY_READ_WHEN_REFUSED = 64 * 1024;

/**
 * A request refused before its body was read (no valid credential, no such route) is answered at
 * once; Node would otherwise read the rest of the body off the wire to keep the connection, which
 * costs the API the bandwidth of whatever a caller without a key chooses to send.
 */
export function closeConnectionsLeftSending(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode >= 400 && !request.raw.complete && !request.raw.destroyed && !fitsTheReadBound(request)) void reply.header('connection', 'close');
    return payload;
  });
}

function fitsTheReadBound(request: FastifyRequest): boolean {
  const declared = request.headers['content-length'];
  return request.headers['transfer-encoding'] === undefined && declared !== undefined && Number(declared) <= MAX_BODY_READ_WHEN_REFUSED;
}

import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

// Fastify refuses a body over the limit as soon as it knows (from Content-Length, or once the limit
// is crossed) and answers with `Connection: close`; Node then closes the socket while the client is
// still sending the rest. The client's next write fails (EPIPE), and a client that gives up at the
// first write error, as Node's fetch does, never reads the 413 already sent. So the rest of the
// body is read and thrown away first: the client finishes sending, and then reads the answer.

/**
 * How far past the route's limit a body is still read to its end. Discarding costs bandwidth, not
 * memory, and 64 MiB arrives in about a second on a LAN; a body declared longer is answered at once
 * and its connection closed, as before, and one sent chunked is cut off there. The request timeout
 * bounds the time spent reading either way.
 */
export const MAX_DISCARDED_EXCESS_BYTES = 64 * 1024 * 1024;

/** Makes a 413 for a body over the limit wait until the client has sent the rest of it, within a bound. */
export function readOversizedBodiesBeforeAnswering(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    // A body already whole, or a connection already gone, has nothing left to wait for.
    if (reply.statusCode === 413 && !request.raw.complete && !request.raw.destroyed) {
      const maxBytes = discardableBytes(request);
      if (maxBytes > 0) await discardRest(request.raw, maxBytes);
    }
    return payload;
  });
}

/**
 * With Content-Length, Fastify refused before reading any of it: all of it, if within the bound,
 * else none. Chunked, it read up to the limit: the bound's worth more.
 */
function discardableBytes(request: FastifyRequest): number {
  const declared = request.headers['content-length'];
  if (declared === undefined) return MAX_DISCARDED_EXCESS_BYTES;
  const length = Number(declared);
  return length <= request.routeOptions.bodyLimit + MAX_DISCARDED_EXCESS_BYTES ? length : 0;
}

/** Resolves once the body has ended, its connection has gone, or more than `maxBytes` were thrown away. */
function discardRest(body: IncomingMessage, maxBytes: number): Promise<void> {
  return new Promise((resolve) => {
    let discarded = 0;
    const onData = (chunk: Buffer): void => {
      discarded += chunk.length;
      if (discarded > maxBytes) stop();
    };
    const stop = (): void => {
      body.off('data', onData).off('end', stop).off('close', stop).off('error', stop);
      resolve();
    };
    body.on('data', onData).once('end', stop).once('close', stop).once('error', stop);
  });
}

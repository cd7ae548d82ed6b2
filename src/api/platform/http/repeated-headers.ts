import type { FastifyRequest } from 'fastify';

// Headers that must appear once. Node joins repeated unknown headers into one value ("a, b"),
// which would turn two Idempotency-Keys into a third key; restoring the list lets the parser refuse it.
const SINGLE_VALUE_HEADERS = ['idempotency-key'];

export function exposeRepeatedHeaders(request: FastifyRequest): void {
  for (const name of SINGLE_VALUE_HEADERS) {
    const values = request.raw.headersDistinct[name];
    if (values && values.length > 1) request.raw.headers[name] = values;
  }
}

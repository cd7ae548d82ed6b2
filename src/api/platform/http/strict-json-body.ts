import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error';

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses JSON bodies from their bytes, refusing any that are not valid UTF-8 (RFC 8259 §8.1).
 * Fastify's own parser decodes leniently: invalid bytes became U+FFFD, so a client's text was
 * silently changed and then accepted. Prototype poisoning stays refused, as before.
 */
export function registerStrictJsonBody(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = STRICT_UTF8.decode(body as Buffer);
    } catch {
      done(ApiError.invalidRequest('The request body is not valid UTF-8'), undefined);
      return;
    }
    void parseJson(request, text, done);
  });
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newPrefixedId } from '../../../common/ids/prefixed-ulid';
import type { ErrorBody } from '../../../contract/wire/error-body';
import type { ErrorCode } from './api-error';
import { requestLineOverflowed, startsLikeRequestLine, urlTooLong } from './request-line';

// Requests that fail before Nest sees them: Node's HTTP parser refuses the bytes, Fastify's router
// cannot decode the path, or Node answers an Expect header itself. Without these, each answered
// with its own body shape (or none), breaking "every non-2xx has the error body".

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  414: 'URI Too Long',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
};

export function newRequestId(): string {
  return newPrefixedId('req_');
}

function errorBody(code: ErrorCode, message: string, requestId: string): string {
  const body: ErrorBody = { error: { code, message, request_id: requestId } };
  return JSON.stringify(body);
}

function errorHeaders(requestId: string, body: string): Record<string, string> {
  return {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    'cache-control': 'no-store',
    connection: 'close',
  };
}

/** Fastify's `clientErrorHandler`: the bytes were not an HTTP request Node could parse. */
export function answerClientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = clientErrorAnswer(error);
  const requestId = newRequestId();
  const body = errorBody(code, message, requestId);
  const head = Object.entries(errorHeaders(requestId, body)).map(([name, value]) => `${name}: ${value}\r\n`);
  if (socket.writable) socket.write(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n${head.join('')}\r\n${body}`);
  socket.destroy(error);
}

function clientErrorAnswer(error: Error & { code?: string; rawPacket?: unknown }): [number, ErrorCode, string] {
  const rawPacket = Buffer.isBuffer(error.rawPacket) ? error.rawPacket : undefined;
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return requestLineOverflowed(rawPacket) ? [414, 'INVALID_REQUEST', urlTooLong().message] : [431, 'INVALID_REQUEST', 'The request headers are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'INVALID_REQUEST', 'The request did not arrive in time'];
    // A method token Node's parser does not know is 501 (RFC 9110 §9.1); bytes that are no request line stay 400.
    case 'HPE_INVALID_METHOD':
      if (startsLikeRequestLine(rawPacket)) return [501, 'NOT_IMPLEMENTED', 'The request method is not implemented'];
      return [400, 'INVALID_REQUEST', 'The request is not valid HTTP'];
    default:
      return [400, 'INVALID_REQUEST', 'The request is not valid HTTP'];
  }
}

/** Fastify's `frameworkErrors`: the router could not use the path (bad percent-encoding, a segment too long). */
export function answerFrameworkError(error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
  const [status, code, message]: [number, ErrorCode, string] =
    error.code === 'FST_ERR_BAD_URL'
      ? [400, 'INVALID_REQUEST', 'The request path is not valid (check its percent-encoding)']
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? [414, 'INVALID_REQUEST', 'A segment of the request path is too long']
        : [500, 'INTERNAL', 'An internal error occurred; it has been logged'];
  const requestId = String(request.id);
  const body = errorBody(code, message, requestId);
  void reply.code(status).headers(errorHeaders(requestId, body)).send(body);
}

/** The server's `checkExpectation` event: Node would answer 417 with no body; only `Expect: 100-continue` is supported. */
export function answerUnsupportedExpectation(_request: IncomingMessage, response: ServerResponse): void {
  const requestId = newRequestId();
  const body = errorBody('INVALID_REQUEST', 'Only "Expect: 100-continue" is supported', requestId);
  response.writeHead(417, errorHeaders(requestId, body)).end(body);
}

import type * as http from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyAddr from '@fastify/proxy-addr';
import type { TrustedHop } from '../common/config/trust-proxy';

/** The scheme and host a browser used to reach the codec, and who it is. */
export interface RequestOrigin {
  https: boolean;
  /** `scheme://host[:port]`, as the browser's Origin header names a page of this server. */
  origin: string;
  /** The client's address: the socket's peer, or what trusted proxies forwarded (as Fastify's request.ip). */
  client: string;
}

/**
 * What Fastify's request.protocol, request.host and request.ip say for the API, for the codec's plain
 * node:http server, under the same TRUST_PROXY rule: X-Forwarded-Proto and X-Forwarded-Host count
 * only when the socket's peer is a trusted proxy (the last value, the one that proxy added), and
 * otherwise the connection and its Host header speak for themselves.
 */
export function requestOrigin(request: http.IncomingMessage, trusted: TrustedHop | undefined): RequestOrigin {
  const fromProxy = trusted !== undefined && request.socket.remoteAddress !== undefined && trusted(request.socket.remoteAddress, 0);
  const forwardedProto = fromProxy ? lastValue(request.headers['x-forwarded-proto']) : undefined;
  const forwardedHost = fromProxy ? lastValue(request.headers['x-forwarded-host']) : undefined;
  const protocol = forwardedProto ?? ((request.socket as TLSSocket).encrypted ? 'https' : 'http');
  const client = trusted ? proxyAddr(request, trusted) : (request.socket.remoteAddress ?? '');
  return { https: protocol === 'https', origin: `${protocol}://${forwardedHost ?? request.headers.host ?? ''}`, client };
}

function lastValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  return value ? value.slice(value.lastIndexOf(',') + 1).trim() : undefined;
}

import type { FastifyRequest } from 'fastify';
import { cookieOf, forwardedOverHttps, sessionCookieHeader } from '../../common/http-cookies';

export const SESSION_COOKIE = 'assay_console';
export const CSRF_HEADER = 'x-csrf-token';

/** The session cookie's value, if the request carries one. */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  return cookieOf(request.headers, SESSION_COOKIE);
}

/** For the whole origin (the console calls /v1 too). */
export function sessionCookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  const https = request.protocol === 'https' || forwardedOverHttps(request.headers);
  return sessionCookieHeader(SESSION_COOKIE, value, { path: '/', maxAgeSeconds, https });
}

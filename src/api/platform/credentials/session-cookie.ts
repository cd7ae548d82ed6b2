import type { FastifyRequest } from 'fastify';
import { cookieOf, sessionCookieHeader, sessionCookieName } from '../../../common/http-cookies';

export const SESSION_COOKIE = 'assay_console';
export const CSRF_HEADER = 'x-csrf-token';

/** The session cookie's value, if the request carries one (`__Host-assay_console` over HTTPS). */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  return cookieOf(request.headers, sessionCookieName(SESSION_COOKIE, request.protocol === 'https'));
}

/** For the whole origin (the console calls /v1 too). */
export function sessionCookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  return sessionCookieHeader(SESSION_COOKIE, value, { path: '/', maxAgeSeconds, https: request.protocol === 'https' });
}

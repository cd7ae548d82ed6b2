import type { FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'assay_console';
export const CSRF_HEADER = 'x-csrf-token';

/** The session cookie's value, if the request carries one. */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

/**
 * HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), the whole origin
 * (the console calls /v1 too); Secure whenever the request came over HTTPS, directly or through a proxy.
 */
export function sessionCookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  const secure = request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https';
  return [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`, ...(secure ? ['Secure'] : [])].join('; ');
}

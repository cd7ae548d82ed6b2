import type { IncomingHttpHeaders } from 'node:http';

/** The named cookie's value, if the request's Cookie header carries one. */
export function cookieOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const header = headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=') || undefined;
  }
  return undefined;
}

export interface SessionCookieAttributes {
  /** The paths the browser sends it to. */
  path: string;
  /** 0 clears the cookie. */
  maxAgeSeconds: number;
  /** Whether the request came over HTTPS, directly (`encrypted`) or through a proxy that says so. */
  https: boolean;
}

/**
 * A session cookie as Assay sets them: HttpOnly (no script reads it), SameSite=Strict (no other
 * site's page sends it), Secure whenever the request came over HTTPS.
 */
export function sessionCookieHeader(name: string, value: string, attributes: SessionCookieAttributes): string {
  const { path, maxAgeSeconds, https } = attributes;
  return [`${name}=${value}`, `Path=${path}`, 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`, ...(https ? ['Secure'] : [])].join('; ');
}

/** True when a TLS-terminating proxy in front says the browser used HTTPS. */
export function forwardedOverHttps(headers: IncomingHttpHeaders): boolean {
  return headers['x-forwarded-proto'] === 'https';
}

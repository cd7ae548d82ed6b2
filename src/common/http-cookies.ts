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
  /** The paths the browser sends it to over plain HTTP; over HTTPS it is always `/`. */
  path: string;
  /** 0 clears the cookie. */
  maxAgeSeconds: number;
  /** Whether the browser used HTTPS: request.protocol, which counts a trusted proxy's word (TRUST_PROXY). */
  https: boolean;
}

/**
 * The name a session cookie goes by: over HTTPS with the `__Host-` prefix, which the browser
 * accepts only with Secure, Path=/ and no Domain, so that no plain-HTTP page and no other host
 * of the domain can set or shadow it. A prefixed name is all an HTTPS request reads.
 */
export function sessionCookieName(name: string, https: boolean): string {
  return https ? `__Host-${name}` : name;
}

/**
 * A session cookie as Assay sets them: HttpOnly (no script reads it), SameSite=Strict (no other
 * site's page sends it), and over HTTPS `__Host-` prefixed and Secure.
 */
export function sessionCookieHeader(name: string, value: string, attributes: SessionCookieAttributes): string {
  const { path, maxAgeSeconds, https } = attributes;
  const scope = https ? ['Path=/'] : [`Path=${path}`];
  return [`${sessionCookieName(name, https)}=${value}`, ...scope, 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`, ...(https ? ['Secure'] : [])].join('; ');
}

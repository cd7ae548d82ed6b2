import type * as http from 'node:http';
import { cookieOf, sessionCookieHeader, sessionCookieName } from '../common/http-cookies';
import { CODEC_SESSION_TTL_SECONDS, type CodecSessions } from './codec-sessions';
import { answer, BodyTooLargeError, readBody } from './http-io';
import type { RequestOrigin } from './request-origin';
import { SIGN_IN_PAGE_CSP, SIGN_IN_PATHS, signInPage, type SignInState } from './sign-in-page';

export const CODEC_SESSION_COOKIE = 'assay_codec';
// Over plain HTTP sent with the codec's own paths only: the page, its forms and the protocol
// (over HTTPS the `__Host-` prefix demands Path=/).
const COOKIE_PATH = '/codec';
const MAX_FORM_BYTES = 4096;

/** Whether the request carries a live sign-in. */
export function signedIn(request: http.IncomingMessage, seenAs: RequestOrigin, sessions: CodecSessions): boolean {
  return sessions.expiryOf(sessionCookieOf(request, seenAs)) !== undefined;
}

/**
 * The browser sign-in: GET /codec/ (the page), POST /codec/sign-in (the credential, from the page's
 * form: a cookie and back to the page, or the page again with 401), POST /codec/sign-out. Returns
 * false for any other path.
 */
export function serveSignIn(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  path: string,
  seenAs: RequestOrigin,
  sessions: CodecSessions,
): boolean {
  if (path === SIGN_IN_PATHS.page || path === COOKIE_PATH) {
    if (request.method !== 'GET' && request.method !== 'HEAD') answer(response, 405, { message: 'Use GET' }, { allow: 'GET, HEAD' });
    else {
      const signedInUntil = sessions.expiryOf(sessionCookieOf(request, seenAs));
      page(response, 200, signedInUntil ? { signedInUntil } : { refused: false });
    }
    return true;
  }
  if (path !== SIGN_IN_PATHS.signIn && path !== SIGN_IN_PATHS.signOut) return false;
  if (request.method !== 'POST') {
    answer(response, 405, { message: 'Use POST' }, { allow: 'POST' });
    return true;
  }
  if (fromAnotherOrigin(request, seenAs)) {
    answer(response, 403, { message: 'Sign-in and sign-out are only for the codec’s own page' });
    return true;
  }
  if (path === SIGN_IN_PATHS.signOut) {
    seeThePage(response, cookie(seenAs, '', 0));
    return true;
  }
  readBody(request, MAX_FORM_BYTES)
    .then(async (body) => {
      const presented = (new URLSearchParams(body).get('credential') ?? '').trim();
      const attempt = await sessions.attempt(seenAs.client, presented);
      if (attempt.outcome === 'throttled') return page(response, 429, { refused: true, retryAfterSeconds: attempt.retryAfterSeconds }, { 'retry-after': String(attempt.retryAfterSeconds) });
      if (attempt.outcome === 'refused') return page(response, 401, { refused: true });
      seeThePage(response, cookie(seenAs, sessions.issue(), CODEC_SESSION_TTL_SECONDS));
    })
    .catch((error: unknown) => {
      if (error instanceof BodyTooLargeError) return answer(response, 413, { message: `The form must be at most ${MAX_FORM_BYTES} bytes` });
      answer(response, 400, { message: 'The form could not be read' });
    });
  return true;
}

/** A browser names the page a form comes from: only the codec's own page signs in or out. */
function fromAnotherOrigin(request: http.IncomingMessage, seenAs: RequestOrigin): boolean {
  const origin = request.headers.origin;
  return origin !== undefined && origin !== seenAs.origin;
}

function sessionCookieOf(request: http.IncomingMessage, seenAs: RequestOrigin): string | undefined {
  return cookieOf(request.headers, sessionCookieName(CODEC_SESSION_COOKIE, seenAs.https));
}

function cookie(seenAs: RequestOrigin, value: string, maxAgeSeconds: number): string {
  return sessionCookieHeader(CODEC_SESSION_COOKIE, value, { path: COOKIE_PATH, maxAgeSeconds, https: seenAs.https });
}

function seeThePage(response: http.ServerResponse, setCookie: string): void {
  response.writeHead(303, { location: SIGN_IN_PATHS.page, 'set-cookie': setCookie, 'cache-control': 'no-store' });
  response.end();
}

function page(response: http.ServerResponse, status: number, state: SignInState, headers: Record<string, string> = {}): void {
  response.writeHead(status, {
    ...headers,
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': SIGN_IN_PAGE_CSP,
    'x-content-type-options': 'nosniff',
    // Not no-referrer: with it the browser sends its forms with `Origin: null`, which reads as foreign.
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
  });
  response.end(signInPage(state));
}

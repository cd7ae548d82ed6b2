import * as http from 'node:http';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { trustedHop, type TrustProxy } from '../common/config/trust-proxy';
import { CodecSessions } from './codec-sessions';
import { answer, BodyTooLargeError, readBody } from './http-io';
import { requestOrigin, type RequestOrigin } from './request-origin';
import { SIGN_IN_PATHS } from './sign-in-page';
import { serveSignIn, signedIn } from './sign-in-routes';

export interface CodecServerOptions {
  /** The operator credential: sent as `Authorization: Bearer <credential>`, or typed into the sign-in page. */
  credential: string;
  /** Origins whose pages may call the endpoint (the Temporal UI's). */
  allowedOrigins: readonly string[];
  /** TRUST_PROXY: the proxies whose X-Forwarded-Proto and -Host say how a browser reached the sign-in page. */
  trustProxy: TrustProxy;
}

const PATHS: Record<string, 'encode' | 'decode'> = { '/codec/encode': 'encode', '/codec/decode': 'decode' };
// Room for a few payloads at Temporal's 2 MB limit, base64-inflated: the UI sends one payload set at a time.
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const ProtoPayloads = temporal.api.common.v1.Payloads;

/**
 * Temporal's remote codec protocol (what the Web UI and `temporal --codec-endpoint` call):
 * `POST /codec/decode` and `/codec/encode` with `{"payloads": [...]}` in protobuf JSON (bytes in
 * base64), answered in kind. Only a caller with the operator credential gets an answer: the CLI
 * sends it as a Bearer token; a browser signs in once at /codec/ (the UI cannot send a Bearer
 * token of ours) and the UI's calls carry that sign-in's cookie. Without either the UI shows the
 * stored ciphertext. CORS lets the UI's origins call it from the browser, with credentials.
 */
export function createCodecServer(codec: PayloadCodec, options: CodecServerOptions): http.Server {
  const sessions = new CodecSessions(options.credential);
  const trusted = trustedHop(options.trustProxy);
  return http.createServer((request, response) => {
    const seenAs = requestOrigin(request, trusted);
    const origin = request.headers.origin;
    if (origin && options.allowedOrigins.includes(origin)) {
      response.setHeader('access-control-allow-origin', origin);
      response.setHeader('access-control-allow-credentials', 'true');
      response.setHeader('vary', 'Origin');
    }
    const path = (request.url ?? '').split('?')[0];
    const operation = PATHS[path];
    if (!operation) {
      if (serveSignIn(request, response, path, seenAs, sessions)) return;
      return answer(response, 404, { message: `Not found: the codec answers POST /codec/decode and /codec/encode, and signs browsers in at ${SIGN_IN_PATHS.page}` });
    }
    if (request.method === 'OPTIONS') {
      response.setHeader('access-control-allow-methods', 'POST, OPTIONS');
      response.setHeader('access-control-allow-headers', 'authorization, content-type, x-namespace');
      response.setHeader('access-control-max-age', '600');
      return answer(response, 204);
    }
    if (request.method !== 'POST') return answer(response, 405, { message: 'Use POST' }, { allow: 'POST, OPTIONS' });
    admission(request, seenAs, sessions)
      .then(async (admitted) => {
        if (admitted === 'refused') {
          const message = `The codec needs the operator credential: Authorization: Bearer <credential>, or a browser signed in at ${SIGN_IN_PATHS.page}`;
          return answer(response, 401, { message }, { 'www-authenticate': 'Bearer' });
        }
        if (admitted !== 'admitted') {
          return answer(response, 429, { message: `Too many failed credentials from this client; retry in ${admitted.retryAfterSeconds} s` }, { 'retry-after': String(admitted.retryAfterSeconds) });
        }
        const body = await readBody(request, MAX_BODY_BYTES);
        const payloads = parsePayloads(body);
        if (!payloads) return answer(response, 400, { message: 'The body must be {"payloads": [...]} in protobuf JSON' });
        const result = await codec[operation](payloads);
        answer(response, 200, ProtoPayloads.toObject(ProtoPayloads.fromObject({ payloads: result }), { bytes: String }));
      })
      .catch((error: unknown) => {
        if (error instanceof BodyTooLargeError) return answer(response, 413, { message: `The body must be at most ${MAX_BODY_BYTES} bytes` });
        // A payload this ring cannot decrypt (an unknown key, tampered data): say so, never what it holds.
        answer(response, 422, { message: error instanceof Error ? error.message : 'The payloads could not be processed' });
      });
  });
}

/** A browser's sign-in, or the operator credential as a Bearer token, failures throttled per client. */
async function admission(
  request: http.IncomingMessage,
  seenAs: RequestOrigin,
  sessions: CodecSessions,
): Promise<'admitted' | 'refused' | { retryAfterSeconds: number }> {
  if (signedIn(request, seenAs, sessions)) return 'admitted';
  const presented = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (presented === undefined) return 'refused';
  const attempt = await sessions.attempt(seenAs.client, presented);
  if (attempt.outcome === 'throttled') return { retryAfterSeconds: attempt.retryAfterSeconds };
  return attempt.outcome === 'accepted' ? 'admitted' : 'refused';
}

function parsePayloads(body: string): Payload[] | undefined {
  try {
    const parsed = JSON.parse(body) as { payloads?: unknown };
    if (!Array.isArray(parsed.payloads)) return undefined;
    return ProtoPayloads.fromObject(parsed).payloads as Payload[];
  } catch {
    return undefined;
  }
}

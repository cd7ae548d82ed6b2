import { createHash, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

export interface CodecServerOptions {
  /** The operator credential, sent as `Authorization: Bearer <credential>`. */
  credential: string;
  /** Origins whose pages may call the endpoint (the Temporal UI's). */
  allowedOrigins: readonly string[];
}

const PATHS: Record<string, 'encode' | 'decode'> = { '/codec/encode': 'encode', '/codec/decode': 'decode' };
// Room for a few payloads at Temporal's 2 MB limit, base64-inflated: the UI sends one payload set at a time.
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const ProtoPayloads = temporal.api.common.v1.Payloads;

/**
 * Temporal's remote codec protocol (what the Web UI and `temporal --codec-endpoint` call):
 * `POST /codec/decode` and `/codec/encode` with `{"payloads": [...]}` in protobuf JSON (bytes in
 * base64), answered in kind. Only a caller with the operator credential gets an answer: without
 * it the UI shows the stored ciphertext. CORS lets the UI's origins call it from the browser.
 */
export function createCodecServer(codec: PayloadCodec, options: CodecServerOptions): http.Server {
  const expected = digest(options.credential);
  return http.createServer((request, response) => {
    const origin = request.headers.origin;
    if (origin && options.allowedOrigins.includes(origin)) {
      response.setHeader('access-control-allow-origin', origin);
      response.setHeader('access-control-allow-credentials', 'true');
      response.setHeader('vary', 'Origin');
    }
    const operation = PATHS[(request.url ?? '').split('?')[0]];
    if (!operation) return answer(response, 404, { message: 'Not found: the codec answers POST /codec/decode and /codec/encode' });
    if (request.method === 'OPTIONS') {
      response.setHeader('access-control-allow-methods', 'POST, OPTIONS');
      response.setHeader('access-control-allow-headers', 'authorization, content-type, x-namespace');
      response.setHeader('access-control-max-age', '600');
      return answer(response, 204);
    }
    if (request.method !== 'POST') return answer(response, 405, { message: 'Use POST' }, { allow: 'POST, OPTIONS' });
    if (!authorized(request.headers.authorization, expected)) {
      return answer(response, 401, { message: 'The codec needs the operator credential: Authorization: Bearer <credential>' }, { 'www-authenticate': 'Bearer' });
    }
    readBody(request)
      .then(async (body) => {
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

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function authorized(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer (.+)$/.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]), expected);
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

class BodyTooLargeError extends Error {}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BodyTooLargeError());
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function answer(response: http.ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) return;
  response.writeHead(status, { ...headers, 'cache-control': 'no-store', ...(body === undefined ? {} : { 'content-type': 'application/json' }) });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

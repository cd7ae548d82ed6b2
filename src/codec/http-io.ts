import type * as http from 'node:http';

export class BodyTooLargeError extends Error {}

/** The request's body as text; rejects with BodyTooLargeError (and stops reading) past `maxBytes`. */
export function readBody(request: http.IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
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

/** A JSON answer (or none), never cached. */
export function answer(response: http.ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) return;
  response.writeHead(status, { ...headers, 'cache-control': 'no-store', ...(body === undefined ? {} : { 'content-type': 'application/json' }) });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

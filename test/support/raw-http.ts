import * as net from 'node:net';

/** A request as bytes on the wire: nothing is validated or encoded, so it can be as wrong as a test needs. */
export interface RawRequest {
  method: string;
  target: string;
  headers: Array<[string, string | Buffer]>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  /** Header names lower-cased; repeated headers keep the last value. */
  headers: Record<string, string>;
  body: Buffer;
}

const CRLF = '\r\n';

/** Serialises the request, with Host, Connection: close and (when there is a body) Content-Length. */
export function requestBytes(request: RawRequest): Buffer {
  const head: Buffer[] = [Buffer.from(`${request.method} ${request.target} HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}Connection: close${CRLF}`, 'latin1')];
  for (const [name, value] of request.headers) head.push(Buffer.concat([Buffer.from(`${name}: `, 'latin1'), Buffer.from(value as string, 'latin1'), Buffer.from(CRLF)]));
  if (request.body !== undefined) head.push(Buffer.from(`Content-Length: ${request.body.length}${CRLF}`));
  return Buffer.concat([...head, Buffer.from(CRLF), request.body ?? Buffer.alloc(0)]);
}

/**
 * Sends raw bytes on a fresh connection and reads the answer until the server closes it. Only
 * what the API sends is parsed: one response, with Content-Length or no body.
 */
export function sendRaw(port: number, bytes: Buffer, timeoutMs = 10_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no complete answer within ${timeoutMs} ms`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => (chunks.length > 0 ? settle() : reject(error)));
    socket.on('end', settle);
    socket.on('connect', () => socket.write(bytes));
    let settled = false;
    function settle(): void {
      if (settled) return;
      settled = true;
      socket.destroy();
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    }
  });
}

function parseResponse(raw: Buffer): RawResponse {
  // A 100 Continue may come first; the answer is the last response head on the wire.
  let rest = raw;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`not an HTTP response: ${JSON.stringify(raw.subarray(0, 200).toString('latin1'))}`);
    const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split(CRLF);
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    if (!status) throw new Error(`bad status line: ${JSON.stringify(statusLine)}`);
    rest = rest.subarray(end + 4);
    if (status === 100) continue;
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = headers['content-length'] === undefined ? rest.length : Number(headers['content-length']);
    return { status, headers, body: rest.subarray(0, length) };
  }
}

import type { RawRequest } from '../../test/support/raw-http';

const BODY_CHARS = 300;

/** A failing request as a person reads it: the body as text, cut short, with bytes that are not printable escaped. */
export function describeRequest(request: RawRequest): string {
  const headers = request.headers.map(([name, value]) => `${name}: ${printable(Buffer.from(value as string, typeof value === 'string' ? 'latin1' : undefined)).slice(0, 120)}`);
  const body = request.body ? printable(request.body.subarray(0, BODY_CHARS)) + (request.body.length > BODY_CHARS ? `… (${request.body.length} bytes)` : '') : '';
  return [`${request.method} ${request.target.slice(0, 200)}`, ...headers, '', body].join('\n');
}

function printable(bytes: Buffer): string {
  return [...bytes.toString('latin1')].map((char) => (/[\x20-\x7e]/.test(char) ? char : `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)).join('');
}

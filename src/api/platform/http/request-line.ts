import { ApiError } from './api-error';

/**
 * The longest URL served: 8 KiB, the least RFC 9112 §3 asks servers to take; a list cursor
 * (4 KiB at most) and every other parameter fit well within it. Longer is 414, not the 431 Node
 * would answer once the request line alone overflows its 16 KiB header limit.
 */
export const MAX_URL_BYTES = 8192;

// A method token and the space after it (RFC 9110 §5.6.2): what starts a request line.
const REQUEST_LINE_START = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /;

export function urlTooLong(): ApiError {
  return new ApiError(414, 'INVALID_REQUEST', `The request URL is longer than ${MAX_URL_BYTES} bytes`);
}

/** Whether bytes Node refused begin like a request line (not, say, a TLS handshake sent to the HTTP port). */
export function startsLikeRequestLine(rawPacket: Buffer | undefined): boolean {
  return rawPacket !== undefined && REQUEST_LINE_START.test(rawPacket.subarray(0, 32).toString('latin1'));
}

/**
 * Whether headers Node refused as too large overflowed in the request line itself. Node hands over
 * the chunk it was parsing: when that chunk starts the request, the request line is either
 * unfinished in it or ends past the limit.
 */
export function requestLineOverflowed(rawPacket: Buffer | undefined): boolean {
  if (!rawPacket || !startsLikeRequestLine(rawPacket)) return false;
  const end = rawPacket.indexOf('\r\n');
  return end < 0 || end > MAX_URL_BYTES;
}

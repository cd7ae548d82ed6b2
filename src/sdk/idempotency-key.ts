import { AssayArgumentError } from './errors';

const MAX_LENGTH = 255;
const PRINTABLE_ASCII = /^[\x21-\x7e][\x20-\x7e]*$/;

/** The caller's key after checking it is one the service accepts, or a fresh UUID. */
export function idempotencyKeyFor(callerKey: string | undefined): string {
  if (callerKey === undefined) return randomUuid();
  if (callerKey.length > MAX_LENGTH || !PRINTABLE_ASCII.test(callerKey)) {
    throw new AssayArgumentError(`idempotencyKey must be 1-${MAX_LENGTH} printable ASCII characters (a UUID is recommended)`);
  }
  return callerKey;
}

function randomUuid(): string {
  const cryptoApi = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (typeof cryptoApi?.randomUUID !== 'function') {
    throw new AssayArgumentError('crypto.randomUUID is unavailable here (browsers offer it on HTTPS pages only); pass idempotencyKey');
  }
  return cryptoApi.randomUUID();
}

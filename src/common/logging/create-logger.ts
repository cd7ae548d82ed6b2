import pino, { type DestinationStream, type Logger } from 'pino';
import { redactApiKeys } from './redact-keys';

/** Paths redacted from every log line: nothing that can authenticate is ever written down. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'key',
  'apiKey',
  '*.authorization',
  '*.apiKey',
];

/**
 * A pino logger (to stdout unless a destination is given). Path redaction covers the known
 * places; the final scrub of each serialized line also catches a key pasted into a URL, an error
 * message or any field nobody thought of.
 */
export function createLogger(level: string, name: string, destination?: DestinationStream): Logger {
  const options = { name, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, hooks: { streamWrite: redactApiKeys } };
  return destination ? pino(options, destination) : pino(options);
}

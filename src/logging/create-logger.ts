import pino, { type Logger } from 'pino';

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

export function createLogger(level: string, name: string): Logger {
  return pino({ name, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } });
}

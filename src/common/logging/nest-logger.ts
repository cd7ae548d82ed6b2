import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

/**
 * Nest's framework messages (and `new Logger(context)` in Assay's modules) through the process's
 * pino logger. Nest's "log" level is its chatter about modules and routes: debug here.
 */
export function nestLogger(logger: Logger): LoggerService {
  const write = (level: 'fatal' | 'error' | 'warn' | 'debug' | 'trace') => (message: unknown, ...rest: unknown[]) => {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const fields = context ? { context } : {};
    if (message instanceof Error) logger[level]({ ...fields, err: message }, message.message);
    else if (typeof message === 'string') logger[level](fields, message);
    // An object is kept as a field, not stringified into msg, so that redaction sees its fields.
    else logger[level]({ ...fields, detail: message });
  };
  return { fatal: write('fatal'), error: write('error'), warn: write('warn'), log: write('debug'), debug: write('debug'), verbose: write('trace') };
}

import pino, { type DestinationStream, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import { redactFields } from './redact-fields';
import { redactApiKeys } from './redact-keys';

/** Which of Assay's processes wrote a line: the `process` field of every line. */
export type AssayProcess = 'api' | 'worker' | 'codec' | 'cli' | 'supervisor' | 'bench';

/**
 * Every Assay process logs through this: pino JSON lines with level, time, process and msg, plus
 * the ids the caller binds (request_id, organisation, task_id or assessment_id, trace_id, span_id).
 * Redaction happens here and nowhere else: the fields that may hold a credential or customer
 * content lose their values (redact-fields.ts), and each finished line is scrubbed of anything
 * key-shaped that got into a message, an error or a field nobody thought of (redact-keys.ts).
 * In a terminal, the same lines are pretty-printed; what is logged does not change.
 */
export function createLogger(level: string, process: AssayProcess, destination: DestinationStream = terminalOr(1)): Logger {
  return pino(
    {
      level,
      base: { process },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: redactFields },
      hooks: { streamWrite: redactApiKeys },
    },
    destination,
  );
}

/** Standard output (1) or error (2): pretty-printed when it is a terminal, JSON lines otherwise. */
export function terminalOr(fd: 1 | 2): DestinationStream {
  const stream = fd === 1 ? globalThis.process.stdout : globalThis.process.stderr;
  return stream.isTTY ? pinoPretty({ sync: true, destination: fd }) : pino.destination({ dest: fd, sync: true });
}

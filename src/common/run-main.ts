import { InvalidConfigError } from './config/app-config';
import { createLogger, terminalOr, type AssayProcess } from './logging/create-logger';

/** Runs an entrypoint: a bad configuration is one clear fatal line and exit 2, anything else exit 1. */
export function runMain(process: AssayProcess, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    // The configuration may be what failed: this logger needs none of it.
    const logger = createLogger('info', process, terminalOr(2));
    if (error instanceof InvalidConfigError) {
      logger.fatal(error.message);
      globalThis.process.exit(2);
    }
    logger.fatal({ err: error }, 'fatal');
    globalThis.process.exit(1);
  });
}

import { InvalidConfigError } from './config/app-config';

/** Runs an entrypoint: a bad configuration is one clear message and exit 2, anything else exit 1. */
export function runMain(name: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    if (error instanceof InvalidConfigError) {
      process.stderr.write(`[${name}] ${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`[${name}] fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

import type { Logger } from '@temporalio/worker';

const ignore = () => undefined;

/** webpack's per-module report is noise at build and test time; only errors are worth showing. */
export const bundlerLogger: Logger = {
  trace: ignore,
  debug: ignore,
  info: ignore,
  warn: ignore,
  log: ignore,
  error: (message, meta) => console.error(message, meta ?? ''),
};

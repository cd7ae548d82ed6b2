import { CommanderError } from 'commander';
import {
  AssayApiError,
  AssayArgumentError,
  AssayNetworkError,
  PollTimeoutError,
  RequestTimeoutError,
  TaskFailedError,
} from '../../sdk';

/** Exit codes of the client commands; scripts branch on them. */
export const ExitCode = {
  Succeeded: 0,
  TaskFailed: 1,
  Usage: 2,
  PollTimeout: 3,
  ApiError: 4,
  /** A defect in the CLI itself (EX_SOFTWARE); kept apart so it is never read as a task failure. */
  Internal: 70,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A command line the CLI cannot act on: missing input, unreadable file, malformed JSON. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof TaskFailedError) return ExitCode.TaskFailed;
  if (error instanceof PollTimeoutError) return ExitCode.PollTimeout;
  if (error instanceof AssayApiError || error instanceof AssayNetworkError || error instanceof RequestTimeoutError) {
    return ExitCode.ApiError;
  }
  if (error instanceof CliUsageError || error instanceof AssayArgumentError) return ExitCode.Usage;
  if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.Succeeded : ExitCode.Usage;
  return ExitCode.Internal;
}

/** One line for stderr; API errors name their status, code and request id so support can find them. */
export function describeError(error: unknown): string {
  if (error instanceof AssayApiError) {
    const requestId = error.request_id ? ` (request ${error.request_id})` : '';
    return `HTTP ${error.status} ${error.code}: ${error.message}${requestId}`;
  }
  if (error instanceof Error) {
    const cause = error instanceof PollTimeoutError && error.cause instanceof Error ? `; last poll: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

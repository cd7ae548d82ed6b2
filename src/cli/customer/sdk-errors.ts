import {
  AssayApiError,
  AssayArgumentError,
  AssayNetworkError,
  PollTimeoutError,
  RequestTimeoutError,
  TaskFailedError,
} from '../../sdk';
import type { FailureReport } from '../command-runner';
import { CliUsageError, ExitCode } from '../exit-codes';
import { BatchItemsFailedError } from './batch-results';
import { UnconfirmedCreateError } from './unconfirmed-create';

/** The customer commands' failures: the SDK's errors, the CLI's own usage errors, creates left unconfirmed and batches whose items did not all succeed. */
export const sdkFailures: FailureReport = { exitCode: exitCodeFor, describe: describeError };

function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof TaskFailedError || error instanceof BatchItemsFailedError) return ExitCode.TaskFailed;
  if (error instanceof PollTimeoutError) return ExitCode.NotFinal;
  if (error instanceof UnconfirmedCreateError) return ExitCode.OutcomeUnknown;
  if (error instanceof AssayApiError) return apiErrorExitCode(error);
  if (error instanceof AssayNetworkError || error instanceof RequestTimeoutError) return ExitCode.Unavailable;
  if (error instanceof CliUsageError || error instanceof AssayArgumentError) return ExitCode.Usage;
  return ExitCode.Internal;
}

/** A definite "no" is a refusal; a 5xx, a 429 or an unreadable answer says only that the service could not serve it now. */
function apiErrorExitCode(error: AssayApiError): ExitCode {
  if (error.status === 404) return ExitCode.NotFound;
  if (error.status >= 400 && error.status < 500 && error.status !== 429) return ExitCode.Refused;
  return ExitCode.Unavailable;
}

/** For stderr; API errors name their status, code and request id so support can find them. */
function describeError(error: unknown): string {
  if (error instanceof UnconfirmedCreateError) return error.explanation(describeError(error.cause));
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

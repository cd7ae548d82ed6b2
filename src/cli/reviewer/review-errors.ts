import { AssessmentNotFoundError, ReviewRefusedError, ReviewUnconfirmedError } from './assessment-review-client';
import { InvalidConfigError } from '../../common/config/app-config';
import type { FailureReport } from '../command-runner';
import { ExitCode } from '../exit-codes';

/** Temporal could not be reached at all, so nothing was asked of it. */
export class TemporalUnreachableError extends Error {
  override name = 'TemporalUnreachableError';
}

/** The reviewer commands' failures: the review client's errors, Temporal unreachable and a bad configuration. */
export const reviewFailures: FailureReport = { exitCode: reviewExitCodeFor, describe: describeReviewError };

function reviewExitCodeFor(error: unknown): ExitCode {
  if (error instanceof ReviewRefusedError) return ExitCode.Refused;
  if (error instanceof AssessmentNotFoundError) return ExitCode.NotFound;
  // Sent, but no worker accepted or refused it in time: the workflow may still apply it later.
  if (error instanceof ReviewUnconfirmedError) return ExitCode.OutcomeUnknown;
  if (error instanceof TemporalUnreachableError) return ExitCode.Unavailable;
  if (error instanceof InvalidConfigError) return ExitCode.Usage;
  return ExitCode.Internal;
}

/** A refusal names its code so scripts and people can tell the cases apart. */
function describeReviewError(error: unknown): string {
  if (error instanceof ReviewRefusedError) return `refused (${error.code}): ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

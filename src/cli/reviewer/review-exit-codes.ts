import { CommanderError } from 'commander';
import { AssessmentNotFoundError, ReviewRefusedError, ReviewUnconfirmedError } from './assessment-review-client';
import { InvalidConfigError } from '../../common/config/app-config';

/** Exit codes of the reviewer commands; scripts branch on them. */
export const ReviewExitCode = {
  Succeeded: 0,
  /** The assessment's workflow refused the action (claimed by someone else, not claimed, completed, …). */
  Refused: 1,
  Usage: 2,
  NotFound: 3,
  /** Temporal unreachable, or no worker confirmed the action in time. */
  Unavailable: 4,
  Internal: 70,
} as const;

export type ReviewExitCode = (typeof ReviewExitCode)[keyof typeof ReviewExitCode];

/** Temporal could not be reached at all. */
export class TemporalUnreachableError extends Error {
  override name = 'TemporalUnreachableError';
}

export function reviewExitCodeFor(error: unknown): ReviewExitCode {
  if (error instanceof ReviewRefusedError) return ReviewExitCode.Refused;
  if (error instanceof AssessmentNotFoundError) return ReviewExitCode.NotFound;
  if (error instanceof ReviewUnconfirmedError || error instanceof TemporalUnreachableError) return ReviewExitCode.Unavailable;
  if (error instanceof InvalidConfigError) return ReviewExitCode.Usage;
  if (error instanceof CommanderError) return error.exitCode === 0 ? ReviewExitCode.Succeeded : ReviewExitCode.Usage;
  return ReviewExitCode.Internal;
}

/** One line for stderr; a refusal names its code so scripts and people can tell the cases apart. */
export function describeReviewError(error: unknown): string {
  if (error instanceof ReviewRefusedError) return `refused (${error.code}): ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

import type { CommandEnd, TextOutput } from '../command-runner';
import { CliUsageError } from '../exit-codes';
import type { FetchFunction } from '../../sdk/http-transport';
import { resolveBaseUrl } from '../../sdk/options';
import { ReviewApiClient } from './review-api-client';

/** Longer than the API's default wait for a worker (REVIEW_UPDATE_TIMEOUT_MS, 20 s), so its answer arrives. */
export const DEFAULT_ACTION_TIMEOUT_MS = 60_000;

/** Everything the reviewer commands touch outside themselves, so tests can run them in-process. */
export interface ReviewCommandDeps extends CommandEnd {
  env: Record<string, string | undefined>;
  stdout: TextOutput;
  actionTimeoutMs: number;
  /** The HTTP client; the global fetch when absent. */
  fetch?: FetchFunction;
}

export function nodeReviewCommandDeps(): ReviewCommandDeps {
  return {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    exit: (code) => process.exit(code),
    actionTimeoutMs: DEFAULT_ACTION_TIMEOUT_MS,
  };
}

/** The API at --base-url, else ASSAY_BASE_URL, with the credential in ASSAY_REVIEWER_CREDENTIAL (never a flag: flags end up in shell history). */
export function reviewClient(deps: ReviewCommandDeps, baseUrl: string | undefined): ReviewApiClient {
  const credential = deps.env.ASSAY_REVIEWER_CREDENTIAL;
  if (!credential) throw new CliUsageError('No reviewer credential: set ASSAY_REVIEWER_CREDENTIAL to the one `assay reviewers add` printed for you');
  return new ReviewApiClient({ baseUrl: resolveBaseUrl(baseUrl ?? deps.env.ASSAY_BASE_URL), credential, actionTimeoutMs: deps.actionTimeoutMs, fetch: deps.fetch });
}

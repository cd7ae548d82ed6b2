import { type Command, InvalidArgumentError, Option } from 'commander';
import type { PendingAssessment } from '../../contract/wire';
import { REVIEW_VERDICTS, type ReviewVerdict } from '../../contract';
import { AssayApiError, type ListPage } from '../../sdk';
import { leafCommand, runAction, type FailureReport } from '../command-runner';
import { sdkFailures } from '../customer/sdk-errors';
import { ExitCode } from '../exit-codes';
import type { ReviewApiClient, ReviewQueueQuery } from './review-api-client';
import { nodeReviewCommandDeps, reviewClient, type ReviewCommandDeps } from './review-command-deps';
import { formatAssessment, formatNextPage, formatPending, formatTransition, toJson } from './review-output';

/** A claim, verdict or release: the API may refuse it, and no worker may confirm it in time. */
const REVIEW_ACTION = [ExitCode.NotFound, ExitCode.Refused, ExitCode.OutcomeUnknown];

/** The SDK's errors as for customers, except an action no worker confirmed: that one may still apply. */
const reviewFailures: FailureReport = {
  exitCode: (error) => (error instanceof AssayApiError && error.code === 'REVIEW_UNCONFIRMED' ? ExitCode.OutcomeUnknown : sdkFailures.exitCode(error)),
  describe: sdkFailures.describe,
};

interface ReviewFlags {
  baseUrl?: string;
  json?: boolean;
}

interface PendingFlags extends ReviewFlags {
  overdue?: boolean;
  mine?: boolean;
  stage?: string;
  group?: string;
  limit?: number;
  cursor?: string;
  all?: boolean;
}

interface CompleteFlags extends ReviewFlags {
  verdict: ReviewVerdict;
  notes: string;
}

/**
 * The architecture team's commands, added to the `assessments` group:
 * `pending`, `show <id>`, `claim <id>`, `complete <id>`, `release <id>`. They call the HTTP API
 * with the reviewer credential in ASSAY_REVIEWER_CREDENTIAL, which says who the reviewer is and
 * which environment's assessments they review.
 */
export function registerReviewCommands(assessments: Command, deps: ReviewCommandDeps = nodeReviewCommandDeps()): void {
  const run = (flags: ReviewFlags, action: (client: ReviewApiClient) => Promise<void>): Promise<void> =>
    runAction(deps, reviewFailures, () => action(reviewClient(deps, flags.baseUrl)));

  reviewLeaf(assessments.command('pending'), deps, [ExitCode.Refused])
    .description('list open assessments a page at a time, earliest SLA deadline first, with reviewer and deadline (reviewers)')
    .option('--overdue', 'only those past their current deadline')
    .option('--mine', 'only those you have claimed')
    .option('--stage <stage>', 'only those whose active review stage has this name', pipelineName)
    .option('--group <group>', 'only those whose active review stage belongs to this reviewer group', pipelineName)
    .option('--limit <n>', 'items per page (default 20; the API takes up to 100)', pageSize)
    .option('--cursor <cursor>', 'the page after the one that printed it (same filters)')
    .option('--all', 'every page, not just one')
    .action((flags: PendingFlags) =>
      run(flags, async (client) => {
        const query: ReviewQueueQuery = { overdue: flags.overdue, claimed_by_me: flags.mine, stage: flags.stage, group: flags.group, limit: flags.limit, cursor: flags.cursor };
        const page = flags.all ? await wholeQueue(client, query) : await client.queuePage(query);
        deps.stdout.write(flags.json ? toJson(page) : formatPending(page.data, new Date()) + formatNextPage(page.next_cursor));
      }),
    );

  reviewLeaf(assessments.command('show <id>'), deps, [ExitCode.NotFound, ExitCode.Refused])
    .description('print an assessment with its findings, claim, deadline and submitted context (reviewers)')
    .action((id: string, flags: ReviewFlags) =>
      run(flags, async (client) => {
        const view = await client.show(id);
        deps.stdout.write(flags.json ? toJson(view) : formatAssessment(view, new Date()));
      }),
    );

  reviewLeaf(assessments.command('claim <id>'), deps, REVIEW_ACTION)
    .description('claim the active stage of an assessment for review as yourself (a member of its group, if it has one) (reviewers)')
    .action((id: string, flags: ReviewFlags) =>
      run(flags, async (client) => {
        const snapshot = await client.claim(id);
        deps.stdout.write(flags.json ? toJson(snapshot) : formatTransition(id, snapshot));
      }),
    );

  reviewLeaf(assessments.command('complete <id>'), deps, REVIEW_ACTION)
    .description('record your verdict on the stage you claimed; the last stage\'s approval, or any other verdict, completes the assessment (reviewers)')
    .addOption(new Option('--verdict <verdict>', 'the outcome').choices(REVIEW_VERDICTS).makeOptionMandatory())
    .requiredOption('--notes <text>', 'what the customer should know or change', nonBlank)
    .action((id: string, flags: CompleteFlags) =>
      run(flags, async (client) => {
        const snapshot = await client.complete(id, { verdict: flags.verdict, notes: flags.notes });
        deps.stdout.write(flags.json ? toJson(snapshot) : formatTransition(id, snapshot));
      }),
    );

  reviewLeaf(assessments.command('release <id>'), deps, REVIEW_ACTION)
    .description('give the stage you claimed back to the queue; the assessment stays under_review (reviewers)')
    .action((id: string, flags: ReviewFlags) =>
      run(flags, async (client) => {
        const snapshot = await client.release(id);
        deps.stdout.write(flags.json ? toJson(snapshot) : formatTransition(id, snapshot));
      }),
    );
}

function reviewLeaf(command: Command, deps: ReviewCommandDeps, codes: readonly ExitCode[]): Command {
  return leafCommand(command, deps, [ExitCode.Unavailable, ...codes])
    .option('--base-url <url>', 'service address (default: $ASSAY_BASE_URL, else http://localhost:3000)')
    .option('--json', 'print JSON');
}

/** Every page from the query's on, as one page with nothing after it. */
async function wholeQueue(client: ReviewApiClient, query: ReviewQueueQuery): Promise<ListPage<PendingAssessment>> {
  const data: PendingAssessment[] = [];
  for await (const page of client.queuePages(query)) data.push(...page.data);
  return { data, has_more: false, next_cursor: null };
}

/** The API says how large a page may be; here only that it is a count. */
function pageSize(value: string): number {
  const size = Number(value);
  if (!Number.isInteger(size) || size < 1) throw new InvalidArgumentError('must be a whole number, at least 1');
  return size;
}

/** Stage and group names as REVIEW_PIPELINES allows them; anything else could match nothing. */
function pipelineName(value: string): string {
  if (!/^[a-z0-9_-]{1,32}$/.test(value)) throw new InvalidArgumentError('must be 1-32 characters of a-z, 0-9, _ and -');
  return value;
}

function nonBlank(value: string): string {
  if (value.trim().length === 0) throw new InvalidArgumentError('must not be blank');
  return value;
}

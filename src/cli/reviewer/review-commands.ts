import { type Command, InvalidArgumentError, Option } from 'commander';
import type { AssessmentReviewClient } from './assessment-review-client';
import { KEY_ENVIRONMENTS, type KeyEnvironment } from '../../common/keys/api-key';
import { REVIEW_VERDICTS, type ReviewVerdict } from '../../contract';
import { nodeReviewCommandDeps, withReviewClient, type ReviewCommandDeps } from './review-command-deps';
import { leafCommand, runAction } from '../command-runner';
import { ExitCode } from '../exit-codes';
import { reviewFailures } from './review-errors';
import { formatAssessment, formatPending, formatTransition, toJson } from './review-output';

/** A claim, verdict or release: the workflow may refuse it, and a worker may fail to confirm it in time. */
const REVIEW_ACTION = [ExitCode.NotFound, ExitCode.Refused, ExitCode.OutcomeUnknown];

interface ReviewFlags {
  env: KeyEnvironment;
  json?: boolean;
}

interface ClaimFlags extends ReviewFlags {
  reviewer: string;
}

interface CompleteFlags extends ReviewFlags {
  verdict: ReviewVerdict;
  notes: string;
  reviewer?: string;
}

interface ReleaseFlags extends ReviewFlags {
  reviewer?: string;
}

/**
 * The architecture team's commands, added to the `assessments` group:
 * `pending`, `show <id>`, `claim <id>`, `complete <id>`, `release <id>`.
 * They talk to Temporal directly (TEMPORAL_ADDRESS and the other TEMPORAL_* settings; the namespace of --env), never to the HTTP
 * API, so they are for operators only.
 */
export function registerReviewCommands(assessments: Command, deps: ReviewCommandDeps = nodeReviewCommandDeps()): void {
  const run = actionRunner(deps);

  reviewLeaf(assessments.command('pending'), deps, [])
    .description('list open assessments, oldest first, with reviewer and SLA deadline (operators)')
    .action((flags: ReviewFlags) =>
      run(flags, async (client) => {
        const pending = await client.pending();
        deps.stdout.write(flags.json ? toJson(pending) : formatPending(pending, new Date()));
      }),
    );

  reviewLeaf(assessments.command('show <id>'), deps, [ExitCode.NotFound])
    .description('print an assessment with its findings, claim, deadline and submitted context (operators)')
    .action((id: string, flags: ReviewFlags) =>
      run(flags, async (client) => {
        const view = await client.show(id);
        deps.stdout.write(flags.json ? toJson(view) : formatAssessment(view, new Date()));
      }),
    );

  reviewLeaf(assessments.command('claim <id>'), deps, REVIEW_ACTION)
    .description('claim an assessment for review: submitted -> under_review (operators)')
    .requiredOption('--reviewer <name>', 'who takes the review')
    .action((id: string, flags: ClaimFlags) =>
      run(flags, async (client) => {
        const snapshot = await client.claim(id, { reviewer: flags.reviewer });
        deps.stdout.write(flags.json ? toJson(snapshot) : formatTransition(id, snapshot));
      }),
    );

  reviewLeaf(assessments.command('complete <id>'), deps, REVIEW_ACTION)
    .description('record the verdict of a claimed assessment: under_review -> completed (operators)')
    .addOption(new Option('--verdict <verdict>', 'the outcome').choices(REVIEW_VERDICTS).makeOptionMandatory())
    .requiredOption('--notes <text>', 'what the customer should know or change', nonBlank)
    .option('--reviewer <name>', 'refuse unless this reviewer holds the claim')
    .action((id: string, flags: CompleteFlags) =>
      run(flags, async (client) => {
        const snapshot = await client.complete(id, { verdict: flags.verdict, notes: flags.notes, ...reviewerOf(flags) });
        deps.stdout.write(flags.json ? toJson(snapshot) : formatTransition(id, snapshot));
      }),
    );

  reviewLeaf(assessments.command('release <id>'), deps, REVIEW_ACTION)
    .description('give a claimed assessment back to the queue: under_review -> submitted (operators)')
    .option('--reviewer <name>', 'refuse unless this reviewer holds the claim')
    .action((id: string, flags: ReleaseFlags) =>
      run(flags, async (client) => {
        const snapshot = await client.release(id, reviewerOf(flags));
        deps.stdout.write(flags.json ? toJson(snapshot) : formatTransition(id, snapshot));
      }),
    );
}

function reviewLeaf(command: Command, deps: ReviewCommandDeps, codes: readonly ExitCode[]): Command {
  return leafCommand(command, deps, [ExitCode.Unavailable, ...codes])
    .addOption(new Option('--env <env>', 'test (sandbox) or live (production)').choices(KEY_ENVIRONMENTS).default('test'))
    .option('--json', 'print JSON');
}

function actionRunner(deps: ReviewCommandDeps) {
  return (flags: ReviewFlags, action: (client: AssessmentReviewClient) => Promise<void>): Promise<void> =>
    runAction(deps, reviewFailures, () => withReviewClient(deps, flags.env, action));
}

function reviewerOf(flags: { reviewer?: string }): { reviewer?: string } {
  return flags.reviewer === undefined ? {} : { reviewer: flags.reviewer };
}

function nonBlank(value: string): string {
  if (value.trim().length === 0) throw new InvalidArgumentError('must not be blank');
  return value;
}

import type { Command } from 'commander';
import type { KeyEnvironment } from '../../common/keys/api-key';
import { InvalidReviewerGroupsError, InvalidReviewerNameError, ReviewerNameTakenError, ReviewerService } from '../../common/reviewers/reviewer-service';
import type { RecordedReviewerAuditEntry } from '../../common/storage/reviewer-store';
import type { ReviewerSummary } from '../../common/reviewers/reviewer-service';
import { leafCommand, runAction, type FailureReport } from '../command-runner';
import { ExitCode } from '../exit-codes';
import { keysFailures } from './keys-errors';
import { withOperatorStorage } from './operator-storage';
import { DEFAULT_AUDIT_LIMIT, actorOption, nodeOperatorCommandDeps, parseEnvironment, parseLimit, type ActorOption, type OperatorCommandDeps } from './operator-options';

/** No active reviewer credential has this id: never added, or revoked. */
export class ReviewerNotFoundError extends Error {
  override name = 'ReviewerNotFoundError';

  constructor(id: string) {
    super(`no active reviewer credential with id ${id}`);
  }
}

/** The key commands' failures, plus a bad or taken reviewer name, bad groups and an unknown credential. */
const reviewersFailures: FailureReport = {
  exitCode: (error) => {
    if (error instanceof ReviewerNotFoundError) return ExitCode.NotFound;
    if (error instanceof InvalidReviewerNameError || error instanceof InvalidReviewerGroupsError) return ExitCode.Usage;
    if (error instanceof ReviewerNameTakenError) return ExitCode.Refused;
    return keysFailures.exitCode(error);
  },
  describe: keysFailures.describe,
};

/**
 * Operator commands: `assay reviewers add <name>|list|revoke <id>|audit`, on the same store as
 * `assay keys`. A reviewer credential lets its holder claim, release and complete assessments
 * through the API as that name, and nothing else; every change is audited.
 */
export function registerReviewersCommands(program: Command, deps: OperatorCommandDeps = nodeOperatorCommandDeps()): void {
  const print = (text: string) => deps.stdout.write(`${text}\n`);
  const withService = <T>(actor: string | undefined, use: (service: ReviewerService) => Promise<T>): Promise<T> =>
    withOperatorStorage(deps.env, (storage, brand) => use(new ReviewerService(storage.reviewers, brand, { actor, clock: deps.clock })));
  const run = (action: () => Promise<void>) => runAction(deps, reviewersFailures, action);
  const leaf = (command: Command, ...codes: ExitCode[]) => leafCommand(command, deps, [ExitCode.Unavailable, ...codes]);

  const reviewers = program.command('reviewers').description('add, list, revoke and audit reviewer credentials (operators)');

  leaf(reviewers.command('add <name>'), ExitCode.Refused)
    .description('issue a credential for the reviewer <name>; the secret is printed once and never stored')
    .option('--env <env>', 'the environment whose assessments it reviews: test (sandbox) or live (production)', parseEnvironment, 'test')
    .option('--group <group>', 'a review group whose pipeline stages it may act on (repeat for several); without any, only stages that name no group', collectGroup, [])
    .option(...actorOption)
    .option('--json', 'print {"id","name","env","groups","credential"}')
    .action((name: string, options: ActorOption & { env: KeyEnvironment; group: string[]; json?: boolean }) =>
      run(async () => {
        const issued = await withService(options.actor, (service) => service.add(name, options.env, options.group));
        if (options.json) print(JSON.stringify(issued));
        else print(`${issued.credential}\n(id ${issued.id}, reviewer ${issued.name}, env ${issued.env}, ${describeGroups(issued.groups)}; store it now, it cannot be shown again)`);
      }),
    );

  leaf(reviewers.command('list'))
    .description('list reviewer credentials (id, prefix, name, env, groups, created, state); never the secret')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async () => {
        const list = await withService(undefined, (service) => service.list());
        if (options.json) print(JSON.stringify(list));
        else list.forEach((reviewer) => print(formatReviewerLine(reviewer)));
      }),
    );

  leaf(reviewers.command('revoke <id>'), ExitCode.NotFound)
    .description('revoke a reviewer credential at once; every API instance refuses it within seconds')
    .option('--reason <text>', 'why, for the audit log (no secrets)')
    .option(...actorOption)
    .action((id: string, options: ActorOption & { reason?: string }) =>
      run(async () => {
        if (!(await withService(options.actor, (service) => service.revoke(id, options.reason)))) throw new ReviewerNotFoundError(id);
        print(`revoked ${id}`);
      }),
    );

  leaf(reviewers.command('audit'))
    .description('show the audit log of reviewer credentials, oldest first')
    .option('--limit <n>', `the newest n entries (default ${DEFAULT_AUDIT_LIMIT})`, parseLimit, DEFAULT_AUDIT_LIMIT)
    .option('--json', 'print JSON')
    .action((options: { limit: number; json?: boolean }) =>
      run(async () => {
        const entries = await withService(undefined, (service) => service.audit(options.limit));
        if (options.json) print(JSON.stringify(entries));
        else entries.forEach((entry) => print(formatReviewerAuditLine(entry)));
      }),
    );
}

/** Commander's accumulator for a repeated option; the shape is checked with the rest, by ReviewerService. */
function collectGroup(group: string, groups: string[]): string[] {
  return [...groups, group];
}

function describeGroups(groups: readonly string[]): string {
  return groups.length === 0 ? 'no groups' : `groups ${groups.join(',')}`;
}

function formatReviewerLine(reviewer: ReviewerSummary): string {
  const state = reviewer.revokedAt === null ? 'active' : `revoked ${reviewer.revokedAt}`;
  const groups = `groups=${reviewer.groups.length === 0 ? '-' : reviewer.groups.join(',')}`;
  return [reviewer.id, reviewer.prefix, reviewer.name, `env=${reviewer.environment}`, groups, `created ${reviewer.createdAt}`, state].join('  ');
}

function formatReviewerAuditLine(entry: RecordedReviewerAuditEntry): string {
  const details = Object.keys(entry.details).length > 0 ? `  ${JSON.stringify(entry.details)}` : '';
  return `${entry.at}  ${entry.actor}  ${entry.action}  ${entry.reviewerId}  ${entry.name}  env=${entry.environment}${details}`;
}

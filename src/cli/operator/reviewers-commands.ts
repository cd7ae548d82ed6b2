import type { Command } from 'commander';
import type { KeyEnvironment } from '../../common/keys/api-key';
import { REVIEWER_CREDENTIALS } from '../../common/reviewers/reviewer-credential';
import { InvalidReviewerGroupsError, InvalidReviewerNameError, ReviewerNameTakenError, ReviewerService, type ReviewerSummary } from './reviewer-service';
import type { RecordedReviewerAuditEntry } from '../../common/storage/reviewer-store';
import { ExitCode } from '../exit-codes';
import { credentialFailures } from './credential-errors';
import { CredentialCommands } from './credential-commands';
import { actorOption, nodeOperatorCommandDeps, parseEnvironment, type ActorOption, type OperatorCommandDeps } from './operator-options';

/**
 * Operator commands: `assay reviewers add <name>|list|revoke <id>|audit`, on the same store as
 * `assay keys`. A reviewer credential lets its holder claim, release and complete assessments
 * through the API as that name, and nothing else; every change is audited.
 */
export function registerReviewersCommands(program: Command, deps: OperatorCommandDeps = nodeOperatorCommandDeps()): void {
  const reviewers = new CredentialCommands<ReviewerService, ReviewerSummary>(program, deps, {
    kind: REVIEWER_CREDENTIALS,
    command: 'reviewers',
    description: 'add, list, revoke and audit reviewer credentials (operators)',
    failures: credentialFailures({ usage: [InvalidReviewerNameError, InvalidReviewerGroupsError], refused: [ReviewerNameTakenError] }),
    service: (storage, brand, options) => new ReviewerService(storage.reviewers, brand, options),
  });

  reviewers
    .leaf('add <name>', ExitCode.Refused)
    .description('issue a credential for the reviewer <name>; the secret is printed once and never stored')
    .option('--env <env>', 'the environment whose assessments it reviews: test (sandbox) or live (production)', parseEnvironment, 'test')
    .option('--group <group>', 'a review group whose pipeline stages it may act on (repeat for several); without any, only stages that name no group', collectGroup, [])
    .option(...actorOption)
    .option('--json', 'print {"id","name","env","groups","credential"}')
    .action((name: string, options: ActorOption & { env: KeyEnvironment; group: string[]; json?: boolean }) =>
      reviewers.run(async () => {
        const issued = await reviewers.withService(options.actor, (service) => service.add(name, options.env, options.group));
        if (options.json) reviewers.print(JSON.stringify(issued));
        else reviewers.print(`${issued.credential}\n(id ${issued.id}, reviewer ${issued.name}, env ${issued.env}, ${describeGroups(issued.groups)}; store it now, it cannot be shown again)`);
      }),
    );

  reviewers.addList('list reviewer credentials (id, prefix, name, env, groups, created, state); never the secret', formatReviewerLine);
  reviewers.addRevoke();
  reviewers.addAudit('show the audit log of reviewer credentials, oldest first', (service, options) => service.audit(options.limit), formatReviewerAuditLine);
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

import type { Command } from 'commander';
import { checkLiveKeyIssue } from '../../common/config/payload-encryption-check';
import { API_KEYS, type KeyEnvironment } from '../../common/keys/api-key';
import { InvalidOrganizationError, KeyService, type IssuedKey, type KeySummary } from '../../common/keys/key-service';
import { parseGracePeriod } from './keys-duration';
import { formatAuditLine, formatKeyLine } from './keys-format';
import { actorOption, nodeOperatorCommandDeps, parseEnvironment, type ActorOption, type OperatorCommandDeps } from './operator-options';
import { ExitCode } from '../exit-codes';
import { credentialFailures } from './credential-errors';
import { CredentialCommands } from './credential-commands';

/** Operator commands: `assay keys issue|list|revoke|rotate|audit`. Every change is audited. */
export function registerKeysCommands(program: Command, deps: OperatorCommandDeps = nodeOperatorCommandDeps()): void {
  const keys = new CredentialCommands<KeyService, KeySummary>(program, deps, {
    kind: API_KEYS,
    command: 'keys',
    description: 'issue, list, rotate, revoke and audit API keys (operators)',
    failures: credentialFailures({ usage: [InvalidOrganizationError] }),
    service: (storage, brand, options) => new KeyService(storage.keys, brand, options),
  });
  const printIssued = (issued: IssuedKey) =>
    keys.print(`${issued.key}\n(id ${issued.id}, org ${issued.org}, env ${issued.env}; store it now, it cannot be shown again)`);

  keys
    .leaf('issue')
    .description('issue a new key; the secret is printed once and never stored')
    .requiredOption('--org <org>', 'organisation id (lowercase letters, digits, dashes)')
    .requiredOption('--env <env>', 'test (sandbox) or live (production)', parseEnvironment)
    .option(...actorOption)
    .option('--json', 'print {"id","key","org","env"}')
    .action((options: ActorOption & { org: string; env: KeyEnvironment; json?: boolean }) =>
      keys.run(async () => {
        const issued = await keys.withService(options.actor, async (service, storage) => {
          // Rotation is not checked: it never adds the first live key, and it is how a leaked one is replaced.
          if (options.env === 'live') await checkLiveKeyIssue(storage.apiEncryption);
          return service.issue(options.org, options.env);
        });
        if (options.json) keys.print(JSON.stringify(issued));
        else printIssued(issued);
      }),
    );

  keys.addList('list keys (id, prefix, org, env, created, last used, state); never the secret', formatKeyLine);
  keys.addRevoke();

  keys
    .leaf('rotate <id>', ExitCode.NotFound)
    .description('issue a replacement key for the same org and env; the old key ends now or after --grace')
    .option('--grace <duration>', 'how long the old key keeps working, e.g. 1h or "2 days" (default: none)', parseGracePeriod, 0)
    .option('--reason <text>', 'why, for the audit log (no secrets)')
    .option(...actorOption)
    .option('--json', 'print {"id","key","org","env","replaced_key_id","replaced_key_ends_at"}')
    .action((id: string, options: ActorOption & { grace: number; reason?: string; json?: boolean }) =>
      keys.run(async () => {
        const rotated = await keys.withService(options.actor, (service) => service.rotate(id, { graceMs: options.grace, reason: options.reason }));
        if (!rotated) throw keys.notFound(id);
        if (options.json) {
          keys.print(JSON.stringify({ ...rotated.issued, replaced_key_id: rotated.replacedKeyId, replaced_key_ends_at: rotated.replacedKeyEndsAt }));
          return;
        }
        printIssued(rotated.issued);
        const ending = options.grace > 0 ? `keeps working until ${rotated.replacedKeyEndsAt}` : 'is revoked';
        keys.print(`${rotated.replacedKeyId} ${ending}`);
      }),
    );

  keys.addAudit(
    'show the audit log of key operations, oldest first',
    (service, options) => service.audit({ keyId: options.key, limit: options.limit }),
    formatAuditLine,
    [['--key <id>', 'only this key']],
  );
}

import type { Command } from 'commander';
import { AppConfig } from '../../common/config/app-config';
import { checkLiveKeyIssue } from '../../common/config/payload-encryption-check';
import type { KeyEnvironment } from '../../common/keys/api-key';
import { KeyService, type IssuedKey } from '../../common/keys/key-service';
import { withOperatorStorage } from './operator-storage';
import { parseGracePeriod } from './keys-duration';
import { formatAuditLine, formatKeyLine } from './keys-format';
import { leafCommand, runAction } from '../command-runner';
import { DEFAULT_AUDIT_LIMIT, actorOption, nodeOperatorCommandDeps, parseEnvironment, parseLimit, type ActorOption, type OperatorCommandDeps } from './operator-options';
import { ExitCode } from '../exit-codes';
import { KeyNotFoundError, keysFailures } from './keys-errors';

/**
 * Operator commands: `assay keys issue|list|revoke|rotate|audit`, working on the key store the API
 * uses (PostgreSQL at DATABASE_URL, else the SQLite file in DATA_DIR). Every change is audited.
 */
export function registerKeysCommands(program: Command, deps: OperatorCommandDeps = nodeOperatorCommandDeps()): void {
  const print = (text: string) => deps.stdout.write(`${text}\n`);
  const withKeyService = <T>(actor: string | undefined, use: (service: KeyService) => Promise<T>): Promise<T> =>
    withOperatorStorage(deps.env, (storage, brand) => use(new KeyService(storage.keys, brand, { actor, clock: deps.clock })));
  const run = (action: () => Promise<void>) => runAction(deps, keysFailures, action);
  const leaf = (command: Command, ...codes: ExitCode[]) => leafCommand(command, deps, [ExitCode.Unavailable, ...codes]);
  const printIssued = (issued: IssuedKey) =>
    print(`${issued.key}\n(id ${issued.id}, org ${issued.org}, env ${issued.env}; store it now, it cannot be shown again)`);

  const keys = program.command('keys').description('issue, list, rotate, revoke and audit API keys (operators)');

  leaf(keys.command('issue'))
    .description('issue a new key; the secret is printed once and never stored')
    .requiredOption('--org <org>', 'organisation id (lowercase letters, digits, dashes)')
    .requiredOption('--env <env>', 'test (sandbox) or live (production)', parseEnvironment)
    .option(...actorOption)
    .option('--json', 'print {"id","key","org","env"}')
    .action((options: ActorOption & { org: string; env: KeyEnvironment; json?: boolean }) =>
      run(async () => {
        // Rotation is not checked: it never adds the first live key, and it is how a leaked one is replaced.
        if (options.env === 'live') checkLiveKeyIssue(new AppConfig(deps.env));
        const issued = await withKeyService(options.actor, (service) => service.issue(options.org, options.env));
        if (options.json) print(JSON.stringify(issued));
        else printIssued(issued);
      }),
    );

  leaf(keys.command('list'))
    .description('list keys (id, prefix, org, env, created, last used, state); never the secret')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      run(async () => {
        const list = await withKeyService(undefined, (service) => service.list());
        if (options.json) print(JSON.stringify(list));
        else list.forEach((key) => print(formatKeyLine(key, deps.clock())));
      }),
    );

  leaf(keys.command('revoke <id>'), ExitCode.NotFound)
    .description('revoke a key at once; every API instance refuses it within seconds')
    .option('--reason <text>', 'why, for the audit log (no secrets)')
    .option(...actorOption)
    .action((id: string, options: ActorOption & { reason?: string }) =>
      run(async () => {
        const revoked = await withKeyService(options.actor, (service) => service.revoke(id, options.reason));
        if (!revoked) throw new KeyNotFoundError(id);
        print(`revoked ${id}`);
      }),
    );

  leaf(keys.command('rotate <id>'), ExitCode.NotFound)
    .description('issue a replacement key for the same org and env; the old key ends now or after --grace')
    .option('--grace <duration>', 'how long the old key keeps working, e.g. 1h or "2 days" (default: none)', parseGracePeriod, 0)
    .option('--reason <text>', 'why, for the audit log (no secrets)')
    .option(...actorOption)
    .option('--json', 'print {"id","key","org","env","replaced_key_id","replaced_key_ends_at"}')
    .action((id: string, options: ActorOption & { grace: number; reason?: string; json?: boolean }) =>
      run(async () => {
        const rotated = await withKeyService(options.actor, (service) => service.rotate(id, { graceMs: options.grace, reason: options.reason }));
        if (!rotated) throw new KeyNotFoundError(id);
        if (options.json) {
          print(JSON.stringify({ ...rotated.issued, replaced_key_id: rotated.replacedKeyId, replaced_key_ends_at: rotated.replacedKeyEndsAt }));
          return;
        }
        printIssued(rotated.issued);
        const ending = options.grace > 0 ? `keeps working until ${rotated.replacedKeyEndsAt}` : 'is revoked';
        print(`${rotated.replacedKeyId} ${ending}`);
      }),
    );

  leaf(keys.command('audit'))
    .description('show the audit log of key operations, oldest first')
    .option('--key <id>', 'only this key')
    .option('--limit <n>', `the newest n entries (default ${DEFAULT_AUDIT_LIMIT})`, parseLimit, DEFAULT_AUDIT_LIMIT)
    .option('--json', 'print JSON')
    .action((options: { key?: string; limit: number; json?: boolean }) =>
      run(async () => {
        const entries = await withKeyService(undefined, (service) => service.audit({ keyId: options.key, limit: options.limit }));
        if (options.json) print(JSON.stringify(entries));
        else entries.forEach((entry) => print(formatAuditLine(entry)));
      }),
    );
}

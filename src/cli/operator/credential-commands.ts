import type { Command } from 'commander';
import type { CredentialKind } from '../../common/credentials/credential-kind';
import type { CredentialServiceOptions } from '../../common/credentials/credential-service';
import type { Storage } from '../../common/storage/storage';
import { leafCommand, runAction, type FailureReport } from '../command-runner';
import { ExitCode } from '../exit-codes';
import { CredentialNotFoundError } from './credential-errors';
import { DEFAULT_AUDIT_LIMIT, actorOption, parseLimit, type ActorOption, type OperatorCommandDeps } from './operator-options';
import { withOperatorStorage } from './operator-storage';

/** One kind's operator command group, e.g. `assay keys`. */
export interface CredentialCommandGroup<Service> {
  kind: CredentialKind;
  command: string;
  description: string;
  failures: FailureReport;
  service(storage: Storage, brand: string, options: CredentialServiceOptions): Service;
}

interface OperatedService<Summary> {
  list(): Promise<Summary[]>;
  revoke(id: string, reason?: string): Promise<boolean>;
}

/** `audit`'s options: the newest `limit` entries, as JSON or lines, narrowed by the kind's filters (`--key <id>`: `key`). */
export type AuditOptions = { limit: number; json?: boolean } & Partial<Record<string, string>>;

/**
 * One kind's command group, on the store the API uses (PostgreSQL at DATABASE_URL, else the SQLite
 * file in DATA_DIR): what every kind's commands do the same way, and the list, revoke and audit
 * commands they share. Each kind adds the commands that issue its credentials.
 */
export class CredentialCommands<Service extends OperatedService<Summary>, Summary> {
  readonly group: Command;

  constructor(
    program: Command,
    private readonly deps: OperatorCommandDeps,
    private readonly spec: CredentialCommandGroup<Service>,
  ) {
    this.group = program.command(spec.command).description(spec.description);
  }

  print(text: string): void {
    this.deps.stdout.write(`${text}\n`);
  }

  /** `use` gets the store too, for what the service's decision depends on beyond its own kind. */
  withService<T>(actor: string | undefined, use: (service: Service, storage: Storage) => Promise<T>): Promise<T> {
    return withOperatorStorage(this.deps.env, (storage, brand) => use(this.spec.service(storage, brand, { actor, clock: this.deps.clock }), storage));
  }

  run(action: () => Promise<void>): Promise<void> {
    return runAction(this.deps, this.spec.failures, action);
  }

  /** A subcommand that can also end with the store out of reach, and with `codes`. */
  leaf(name: string, ...codes: ExitCode[]): Command {
    return leafCommand(this.group.command(name), this.deps, [ExitCode.Unavailable, ...codes]);
  }

  notFound(id: string): CredentialNotFoundError {
    return new CredentialNotFoundError(this.spec.kind.noun, id);
  }

  addList(description: string, formatLine: (summary: Summary, now: Date) => string): void {
    this.leaf('list')
      .description(description)
      .option('--json', 'print JSON')
      .action((options: { json?: boolean }) =>
        this.run(async () => {
          const list = await this.withService(undefined, (service) => service.list());
          if (options.json) this.print(JSON.stringify(list));
          else list.forEach((summary) => this.print(formatLine(summary, this.deps.clock())));
        }),
      );
  }

  addRevoke(): void {
    this.leaf('revoke <id>', ExitCode.NotFound)
      .description(`revoke a ${this.spec.kind.noun} at once; every API instance refuses it within seconds`)
      .option('--reason <text>', 'why, for the audit log (no secrets)')
      .option(...actorOption)
      .action((id: string, options: ActorOption & { reason?: string }) =>
        this.run(async () => {
          if (!(await this.withService(options.actor, (service) => service.revoke(id, options.reason)))) throw this.notFound(id);
          this.print(`revoked ${id}`);
        }),
      );
  }

  /** `filters`: the kind's options narrowing the log, as [flags, description]. */
  addAudit<Entry>(
    description: string,
    read: (service: Service, options: AuditOptions) => Promise<Entry[]>,
    formatLine: (entry: Entry) => string,
    filters: ReadonlyArray<readonly [string, string]> = [],
  ): void {
    const audit = this.leaf('audit').description(description);
    filters.forEach(([flags, help]) => audit.option(flags, help));
    audit
      .option('--limit <n>', `the newest n entries (default ${DEFAULT_AUDIT_LIMIT})`, parseLimit, DEFAULT_AUDIT_LIMIT)
      .option('--json', 'print JSON')
      .action((options: AuditOptions) =>
        this.run(async () => {
          const entries = await this.withService(undefined, (service) => read(service, options));
          if (options.json) this.print(JSON.stringify(entries));
          else entries.forEach((entry) => this.print(formatLine(entry)));
        }),
      );
  }
}

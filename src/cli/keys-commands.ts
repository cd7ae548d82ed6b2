import { Command, InvalidArgumentError } from 'commander';
import { AppConfig } from '../config/app-config';
import { KEY_ENVIRONMENTS, type KeyEnvironment } from '../keys/api-key';
import { KeyService } from '../keys/key-service';
import { SqliteKeyStore } from '../keys/sqlite-key-store';

async function withKeyService<T>(use: (service: KeyService) => Promise<T>): Promise<T> {
  const config = new AppConfig();
  const store = new SqliteKeyStore(config.keyDatabasePath);
  try {
    return await use(new KeyService(store, config.values.API_KEY_BRAND));
  } finally {
    await store.close();
  }
}

function parseEnvironment(value: string): KeyEnvironment {
  if (!(KEY_ENVIRONMENTS as readonly string[]).includes(value)) throw new InvalidArgumentError('must be test or live');
  return value as KeyEnvironment;
}

/** Operator commands: `assay keys issue|list|revoke`, working on the key store of DATA_DIR. */
export function registerKeysCommands(program: Command): void {
  const keys = program.command('keys').description('issue, list and revoke API keys (operators)');

  keys
    .command('issue')
    .description('issue a new key; the secret is printed once and never stored')
    .requiredOption('--org <org>', 'organisation id (lowercase letters, digits, dashes)')
    .requiredOption('--env <env>', 'test (sandbox) or live (production)', parseEnvironment)
    .option('--json', 'print {"id","key","org","env"}')
    .action(async (options: { org: string; env: KeyEnvironment; json?: boolean }) => {
      const issued = await withKeyService((service) => service.issue(options.org, options.env));
      if (options.json) process.stdout.write(`${JSON.stringify(issued)}\n`);
      else process.stdout.write(`${issued.key}\n(id ${issued.id}, org ${issued.org}, env ${issued.env}; store it now, it cannot be shown again)\n`);
    });

  keys
    .command('list')
    .description('list keys (prefix, id, org, env, created, revoked); never the secret')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const list = await withKeyService((service) => service.list());
      if (options.json) {
        process.stdout.write(`${JSON.stringify(list)}\n`);
        return;
      }
      for (const key of list) {
        const state = key.revokedAt ? `revoked ${key.revokedAt}` : 'active';
        process.stdout.write(`${key.id}  ${key.prefix}  org=${key.organizationId}  env=${key.environment}  created ${key.createdAt}  ${state}\n`);
      }
    });

  keys
    .command('revoke <id>')
    .description('revoke a key; running API processes refuse it within seconds')
    .action(async (id: string) => {
      const revoked = await withKeyService((service) => service.revoke(id));
      if (!revoked) {
        process.stderr.write(`no active key with id ${id}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`revoked ${id}\n`);
    });
}

import { Command } from 'commander';
import { InvalidConfigError } from '../config/app-config';
import { InvalidOrganizationError } from '../keys/key-service';
import { registerClientCommands } from './client-commands';
import { registerKeysCommands } from './keys-commands';

const USAGE_EXIT_CODE = 2;

const program = new Command('assay').description('Assay: durable AI tasks and network assessments').showHelpAfterError();
registerClientCommands(program);
registerKeysCommands(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof InvalidConfigError || error instanceof InvalidOrganizationError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(USAGE_EXIT_CODE);
  }
  process.stderr.write(`assay: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

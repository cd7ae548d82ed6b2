import { Command, CommanderError } from 'commander';
import { InvalidConfigError } from '../common/config/app-config';
import { InvalidOrganizationError } from '../common/keys/key-service';
import { registerReviewCommands } from './reviewer/review-commands';
import { commandGroup, registerCustomerCommands } from './customer/commands';
import { ExitCode, commanderExitCode, exitCodeHelp } from './exit-codes';
import { KeyStoreUnavailableError } from './operator/key-store-unavailable';
import { registerKeysCommands } from './operator/keys-commands';

const program = new Command('assay')
  .description('Assay: durable AI tasks and network assessments')
  .addHelpText('after', exitCodeHelp())
  .showHelpAfterError()
  .exitOverride();
registerCustomerCommands(program);
registerReviewCommands(commandGroup(program, 'assessments', 'network-architecture assessments'));
registerKeysCommands(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) process.exit(commanderExitCode(error));
  if (error instanceof InvalidConfigError || error instanceof InvalidOrganizationError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(ExitCode.Usage);
  }
  if (error instanceof KeyStoreUnavailableError) {
    process.stderr.write(`assay: ${error.message}\n`);
    process.exit(ExitCode.Unavailable);
  }
  process.stderr.write(`assay: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(ExitCode.Internal);
});

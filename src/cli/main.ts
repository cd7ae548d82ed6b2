import { Command, CommanderError } from 'commander';
import { InvalidConfigError } from '../common/config/app-config';
import { InvalidOrganizationError } from '../common/keys/key-service';
import { registerReviewCommands } from './reviewer/review-commands';
import { commandGroup, registerClientCommands } from './customer/client-commands';
import { ExitCode } from './customer/client-exit-codes';
import { registerKeysCommands } from './operator/keys-commands';

const program = new Command('assay')
  .description('Assay: durable AI tasks and network assessments')
  .showHelpAfterError()
  .exitOverride();
registerClientCommands(program);
registerReviewCommands(commandGroup(program, 'assessments', 'network-architecture assessments'));
registerKeysCommands(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) {
    // Help and --version arrive here too, as "errors" with exit code 0.
    process.exit(error.exitCode === 0 ? ExitCode.Succeeded : ExitCode.Usage);
  }
  if (error instanceof InvalidConfigError || error instanceof InvalidOrganizationError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(ExitCode.Usage);
  }
  process.stderr.write(`assay: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(ExitCode.Internal);
});

import { Command, CommanderError } from 'commander';
import { registerReviewCommands } from './reviewer/review-commands';
import { commandGroup, registerCustomerCommands } from './customer/commands';
import { ExitCode, commanderExitCode, exitCodeHelp } from './exit-codes';
import { registerKeysCommands } from './operator/keys-commands';
import { registerReviewersCommands } from './operator/reviewers-commands';

const program = new Command('assay')
  .description('Assay: durable AI tasks and network assessments')
  .addHelpText('after', exitCodeHelp())
  .showHelpAfterError()
  .exitOverride();
registerCustomerCommands(program);
registerReviewCommands(commandGroup(program, 'assessments', 'network-architecture assessments'));
registerKeysCommands(program);
registerReviewersCommands(program);

// Every command ends itself with its code; what arrives here is commander's own verdict on the
// command line (unknown command, help of a group) or a defect.
program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) process.exit(commanderExitCode(error));
  process.stderr.write(`assay: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(ExitCode.Internal);
});

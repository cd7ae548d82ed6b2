import { Command, CommanderError } from 'commander';
import { createLogger, terminalOr } from '../common/logging/create-logger';
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
  // A defect, not a failure the command reports: logged like every process's fatal error.
  createLogger('info', 'cli', terminalOr(2)).fatal({ err: error }, 'internal error');
  process.exit(ExitCode.Internal);
});

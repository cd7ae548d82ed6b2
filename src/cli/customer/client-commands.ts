import { type Command, InvalidArgumentError } from 'commander';
import { type ClientCommandDeps, nodeClientCommandDeps } from './client-command-deps';
import {
  type ConnectionFlags,
  type GetFlags,
  type SummarizeFlags,
  getAssessmentCommand,
  getTaskCommand,
  submitAssessmentCommand,
  summarizeCommand,
} from './client-command-handlers';
import { ExitCode, describeError, exitCodeFor } from './client-exit-codes';

/**
 * Customer commands: `assay summarize`, `assay tasks get`, `assay assessments submit|get`.
 * Exit codes: 0 succeeded, 1 task failed, 2 usage, 3 poll timeout, 4 HTTP/API error.
 */
export function registerClientCommands(program: Command, deps: ClientCommandDeps = nodeClientCommandDeps()): void {
  const run = actionRunner(deps);

  pollCeilingOptions(leaf(program.command('summarize [file]'), deps))
    .description('summarize a text file, or stdin when the file is "-" or omitted; prints the summary')
    .option('--json', 'print the whole task as JSON instead of the summary')
    .option('--max-sentences <n>', 'longest summary wanted, in sentences', positiveInteger)
    .action((file: string | undefined, flags: SummarizeFlags) => run(() => summarizeCommand(file, flags, deps)));

  const tasks = commandGroup(program, 'tasks', 'AI tasks');
  pollCeilingOptions(waitOption(leaf(tasks.command('get <id>'), deps)))
    .description('print a task as JSON')
    .action((id: string, flags: GetFlags) => run(() => getTaskCommand(id, flags, deps)));

  const assessments = commandGroup(program, 'assessments', 'network-architecture assessments');
  leaf(assessments.command('submit <file.json>'), deps)
    .description('submit an architecture ({name, context, components, links}) for assessment; prints it as JSON')
    .action((file: string, flags: ConnectionFlags) => run(() => submitAssessmentCommand(file, flags, deps)));
  pollCeilingOptions(waitOption(leaf(assessments.command('get <id>'), deps)))
    .description('print an assessment as JSON')
    .action((id: string, flags: GetFlags) => run(() => getAssessmentCommand(id, flags, deps)));
}

/**
 * The subcommand group `name` of `program`, created when absent. Every registrar adding to a
 * shared group (`tasks`, `assessments`) goes through this, since commander refuses a second
 * command of the same name.
 */
export function commandGroup(program: Command, name: string, description: string): Command {
  return program.commands.find((command) => command.name() === name) ?? program.command(name).description(description);
}

function leaf(command: Command, deps: ClientCommandDeps): Command {
  return command
    .option('--base-url <url>', 'service address (default: $ASSAY_BASE_URL, else http://localhost:3000)')
    .exitOverride((error) => {
      deps.exit(exitCodeFor(error));
      // Reached only when deps.exit returns (tests); commander would otherwise exit with its own code.
      throw error;
    });
}

function waitOption(command: Command): Command {
  return command.option('--wait', 'poll until final (first poll after 1.5 s, then every 1-2 s)');
}

function pollCeilingOptions(command: Command): Command {
  return command
    .option('--timeout <seconds>', 'stop polling after this long (default 60)', positiveNumber)
    .option('--max-polls <n>', 'stop polling after this many polls (default 30)', positiveInteger);
}

function actionRunner(deps: ClientCommandDeps): (handler: () => Promise<ExitCode>) => Promise<void> {
  return async (handler) => {
    let code: ExitCode;
    try {
      code = await handler();
    } catch (error) {
      code = exitCodeFor(error);
      deps.stderr.write(`assay: ${describeError(error)}\n`);
      if (code === ExitCode.Internal && error instanceof Error && error.stack) deps.stderr.write(`${error.stack}\n`);
    }
    deps.exit(code);
  };
}

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError('must be a positive integer');
  return parsed;
}

function positiveNumber(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new InvalidArgumentError('must be a positive number');
  return parsed;
}

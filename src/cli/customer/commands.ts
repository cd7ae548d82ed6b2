import { type Command, InvalidArgumentError, Option } from 'commander';
import { leafCommand, runAction } from '../command-runner';
import { ExitCode } from '../exit-codes';
import { type CustomerCommandDeps, nodeCustomerCommandDeps } from './command-deps';
import {
  type CreateFlags,
  type GetFlags,
  type SummarizeFlags,
  getAssessmentCommand,
  getTaskCommand,
  submitAssessmentCommand,
  summarizeBatchCommand,
  summarizeCommand,
  usageCommand,
  type UsageFlags,
} from './command-handlers';
import { sdkFailures } from './sdk-errors';

/** Every request can be refused or find the service unavailable. */
const ANY_REQUEST = [ExitCode.Refused, ExitCode.Unavailable];

/** Customer commands, over the HTTP API through the SDK: `assay summarize`, `assay tasks get`, `assay assessments submit|get`. */
export function registerCustomerCommands(program: Command, deps: CustomerCommandDeps = nodeCustomerCommandDeps()): void {
  const run = (action: () => Promise<void>) => runAction(deps, sdkFailures, action);

  pollCeilingOptions(idempotencyKeyOption(leaf(program.command('summarize [file]'), deps, ExitCode.TaskFailed, ExitCode.NotFinal, ExitCode.OutcomeUnknown)), {
    timeout: '60; 3600 with --batch',
    maxPolls: '30; none with --batch',
  })
    .description('summarize a text file, or stdin when the file is "-" or omitted; prints the summary')
    .option('--json', 'print the whole task as JSON instead of the summary')
    .addOption(
      new Option(
        '--batch <file.jsonl>',
        'summarize each line {"key"?, "text", "max_sentences"?} of a JSONL file (stdin when "-") as one batch; prints one JSON line per item, in the file\'s order, once the batch has ended',
      ).conflicts('json'),
    )
    .option('--max-sentences <n>', 'longest summary wanted, in sentences (with --batch, for the lines that set none)', positiveInteger)
    .option('--model <name>', "the model to summarise with (the service's default when omitted)")
    .action((file: string | undefined, flags: SummarizeFlags) =>
      run(() => (flags.batch === undefined ? summarizeCommand(file, flags, deps) : summarizeBatchCommand(flags.batch, file, flags, deps))),
    );

  const tasks = commandGroup(program, 'tasks', 'AI tasks');
  pollCeilingOptions(waitOption(leaf(tasks.command('get <id>'), deps, ExitCode.TaskFailed, ExitCode.NotFound, ExitCode.NotFinal)))
    .description('print a task as JSON')
    .action((id: string, flags: GetFlags) => run(() => getTaskCommand(id, flags, deps)));

  const assessments = commandGroup(program, 'assessments', 'network-architecture assessments');
  idempotencyKeyOption(leaf(assessments.command('submit <file.json>'), deps, ExitCode.OutcomeUnknown))
    .description('submit an architecture ({name, context, components, links}, and revision_of to answer changes requested on an earlier one) for assessment; prints it as JSON')
    .action((file: string, flags: CreateFlags) => run(() => submitAssessmentCommand(file, flags, deps)));
  pollCeilingOptions(waitOption(leaf(assessments.command('get <id>'), deps, ExitCode.NotFound, ExitCode.NotFinal)))
    .description('print an assessment as JSON')
    .action((id: string, flags: GetFlags) => run(() => getAssessmentCommand(id, flags, deps)));

  leaf(program.command('usage'), deps)
    .description("print the organisation's usage per UTC day and model (tasks, provider calls, tokens, characters, cost) as JSON")
    .option('--from <day>', 'first day, YYYY-MM-DD (default: 29 days before --to)')
    .option('--to <day>', 'last day, YYYY-MM-DD (default: today)')
    .action((flags: UsageFlags) => run(() => usageCommand(flags, deps)));
}

/**
 * The subcommand group `name` of `program`, created when absent. Every registrar adding to a
 * shared group (`tasks`, `assessments`) goes through this, since commander refuses a second
 * command of the same name.
 */
export function commandGroup(program: Command, name: string, description: string): Command {
  return program.commands.find((command) => command.name() === name) ?? program.command(name).description(description);
}

function leaf(command: Command, deps: CustomerCommandDeps, ...codes: ExitCode[]): Command {
  return leafCommand(command, deps, [...ANY_REQUEST, ...codes]).option(
    '--base-url <url>',
    'service address (default: $ASSAY_BASE_URL, else http://localhost:3000)',
  );
}

function idempotencyKeyOption(command: Command): Command {
  return command.option(
    '--idempotency-key <key>',
    'send the create under this key (default: a fresh UUID); the same key and input return the first result instead of a second one',
  );
}

function waitOption(command: Command): Command {
  return command.option('--wait', 'poll until final (first poll after 1.5 s, then every 1-2 s)');
}

function pollCeilingOptions(command: Command, defaults = { timeout: '60', maxPolls: '30' }): Command {
  return command
    .option('--timeout <seconds>', `stop polling after this long (default ${defaults.timeout})`, positiveNumber)
    .option('--max-polls <n>', `stop polling after this many polls (default ${defaults.maxPolls})`, positiveInteger);
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

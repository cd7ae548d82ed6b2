import { Command, CommanderError } from 'commander';
import { commanderExitCode } from '../../src/cli/exit-codes';
import type { OperatorCommandDeps } from '../../src/cli/operator/operator-options';

export interface OperatorRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Runs `assay <args>` in-process with one operator command group registered, its output recorded instead of printed. */
export async function runOperatorCommand(
  register: (program: Command, deps: OperatorCommandDeps) => void,
  env: Record<string, string>,
  clock: () => Date,
  args: string[],
): Promise<OperatorRun> {
  const run: OperatorRun = { stdout: '', stderr: '', exitCode: -1 };
  const program = new Command('assay').exitOverride().configureOutput({ writeOut: (text) => (run.stdout += text), writeErr: (text) => (run.stderr += text) });
  register(program, {
    env,
    stdout: { write: (text: string) => (run.stdout += text) },
    stderr: { write: (text: string) => (run.stderr += text) },
    exit: (code) => (run.exitCode = code),
    clock,
  });
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // A leaf command has already ended through exit(); the group itself has not.
    if (run.exitCode === -1) run.exitCode = commanderExitCode(error);
  }
  return run;
}

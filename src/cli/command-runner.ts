import type { Command } from 'commander';
import { ExitCode, commanderExitCode, exitCodeHelp } from './exit-codes';

export interface TextOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Where a command reports how it ended; tests record the code instead of exiting. */
export interface CommandEnd {
  stderr: TextOutput;
  /** Ends the command with this code; also called for commander's usage errors, which then throw. */
  exit(code: ExitCode): void;
}

/** How one audience's errors read on stderr, and the code each ends the command with. */
export interface FailureReport {
  exitCode(error: unknown): ExitCode;
  describe(error: unknown): string;
}

/** A command that ends through `end` with the shared table's codes, and lists in its help the ones it can end with. */
export function leafCommand(command: Command, end: CommandEnd, codes: readonly ExitCode[]): Command {
  return command.addHelpText('after', exitCodeHelp(codes)).exitOverride((error) => {
    end.exit(commanderExitCode(error));
    // Reached only when end.exit returns (tests); commander would otherwise exit with its own code.
    throw error;
  });
}

/** Runs a command's action: success exits 0, a failure is one stderr line and its code, a defect also its stack. */
export async function runAction(end: CommandEnd, failures: FailureReport, action: () => Promise<void>): Promise<void> {
  let code: ExitCode = ExitCode.Succeeded;
  try {
    await action();
  } catch (error) {
    code = failures.exitCode(error);
    end.stderr.write(`assay: ${failures.describe(error)}\n`);
    if (code === ExitCode.Internal && error instanceof Error && error.stack) end.stderr.write(`${error.stack}\n`);
  }
  end.exit(code);
}

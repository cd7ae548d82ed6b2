import { CommanderError } from 'commander';

/**
 * The exit codes of every `assay` command, customer, operator and reviewer alike: scripts branch
 * on them, so each number has one meaning everywhere and the numbers never change.
 */
export const ExitCode = {
  Succeeded: 0,
  TaskFailed: 1,
  Usage: 2,
  NotFound: 3,
  Refused: 4,
  Unavailable: 5,
  NotFinal: 6,
  OutcomeUnknown: 7,
  /** EX_SOFTWARE: kept apart so a defect in the CLI is never read as an answer about the work. */
  Internal: 70,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

const MEANINGS: Record<ExitCode, string> = {
  0: 'succeeded',
  1: 'task failed: the task ran and failed; its error code is on stderr',
  2: 'usage: bad arguments, input or configuration; nothing was sent',
  3: 'not found: no such task, assessment, key or reviewer credential',
  4: "refused: authentication, validation, or the review's state does not allow it",
  5: 'unavailable: service or key store down or busy; nothing changed',
  6: 'not final yet: waited as long as asked; the work goes on',
  7: 'outcome unknown: a change was sent but not confirmed; stderr says how to find out',
  70: 'internal: a defect in the CLI; stderr has the stack trace',
};

/** Always possible, so every command's help lists them. */
const EVERY_COMMAND: readonly ExitCode[] = [ExitCode.Succeeded, ExitCode.Usage, ExitCode.Internal];

/** The "Exit codes:" help section: the whole table, or the codes one command can end with. */
export function exitCodeHelp(codes: readonly ExitCode[] = Object.values(ExitCode)): string {
  const listed = [...new Set([...EVERY_COMMAND, ...codes])].sort((a, b) => a - b);
  return ['', 'Exit codes:', ...listed.map((code) => `  ${String(code).padEnd(3)} ${MEANINGS[code]}`)].join('\n');
}

/** A command line the CLI cannot act on: missing input, unreadable file, malformed JSON. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

/** Commander reports help and --version as errors with exit code 0; anything else it reports is a usage error. */
export function commanderExitCode(error: CommanderError): ExitCode {
  return error.exitCode === 0 ? ExitCode.Succeeded : ExitCode.Usage;
}

import { InvalidConfigError } from '../../common/config/app-config';
import type { FailureReport } from '../command-runner';
import { ExitCode } from '../exit-codes';

/** No active credential of a kind has this id: never issued, revoked, or past its grace period. */
export class CredentialNotFoundError extends Error {
  override name = 'CredentialNotFoundError';

  /** `noun`: what the kind's messages call one credential, e.g. "key". */
  constructor(noun: string, id: string) {
    super(`no active ${noun} with id ${id}`);
  }
}

/** The key store could not be opened (PostgreSQL unreachable, the SQLite file unusable), so nothing was read or changed. */
export class KeyStoreUnavailableError extends Error {
  override name = 'KeyStoreUnavailableError';

  constructor(where: string, cause: unknown) {
    super(`The key store (${where}) could not be opened: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

type ErrorClass = abstract new (...args: never[]) => Error;

/** The errors of one kind's own decisions: refused input (usage), and a conflict with what is stored (refused). */
export interface KindErrors {
  usage: readonly ErrorClass[];
  refused?: readonly ErrorClass[];
}

/** A credential command group's failures: an unknown credential, the store out of reach, a bad configuration, and the kind's own. */
export function credentialFailures(kind: KindErrors): FailureReport {
  const isOneOf = (error: unknown, classes: readonly ErrorClass[] = []) => classes.some((errorClass) => error instanceof errorClass);
  return {
    exitCode: (error) => {
      if (error instanceof CredentialNotFoundError) return ExitCode.NotFound;
      if (error instanceof KeyStoreUnavailableError) return ExitCode.Unavailable;
      if (error instanceof InvalidConfigError || isOneOf(error, kind.usage)) return ExitCode.Usage;
      if (isOneOf(error, kind.refused)) return ExitCode.Refused;
      return ExitCode.Internal;
    },
    describe: (error) => (error instanceof Error ? error.message : String(error)),
  };
}

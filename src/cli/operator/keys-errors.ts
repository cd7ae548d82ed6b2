import { InvalidConfigError } from '../../common/config/app-config';
import { InvalidOrganizationError } from '../../common/keys/key-service';
import type { FailureReport } from '../command-runner';
import { ExitCode } from '../exit-codes';

/** No active key has this id: never issued, revoked, or past its grace period. */
export class KeyNotFoundError extends Error {
  override name = 'KeyNotFoundError';

  constructor(id: string) {
    super(`no active key with id ${id}`);
  }
}

/** The key store could not be opened (PostgreSQL unreachable, the SQLite file unusable), so nothing was read or changed. */
export class KeyStoreUnavailableError extends Error {
  override name = 'KeyStoreUnavailableError';

  constructor(where: string, cause: unknown) {
    super(`The key store (${where}) could not be opened: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** The key commands' failures: an unknown key, the store out of reach, a bad configuration or organisation id. */
export const keysFailures: FailureReport = {
  exitCode: (error) => {
    if (error instanceof KeyNotFoundError) return ExitCode.NotFound;
    if (error instanceof KeyStoreUnavailableError) return ExitCode.Unavailable;
    if (error instanceof InvalidConfigError || error instanceof InvalidOrganizationError) return ExitCode.Usage;
    return ExitCode.Internal;
  },
  describe: (error) => (error instanceof Error ? error.message : String(error)),
};

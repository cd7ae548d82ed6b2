/** The key store could not be opened (PostgreSQL unreachable, the SQLite file unusable), so nothing was read or changed. */
export class KeyStoreUnavailableError extends Error {
  override name = 'KeyStoreUnavailableError';

  constructor(where: string, cause: unknown) {
    super(`The key store (${where}) could not be opened: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

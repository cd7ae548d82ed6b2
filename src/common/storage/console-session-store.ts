import type { Kysely } from 'kysely';
import type { StoredConsoleSession, Tables } from './tables';

/** Persistence of console sessions, shared by every API instance through the one database. */
export class ConsoleSessionStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async create(session: StoredConsoleSession): Promise<void> {
    await this.db.insertInto('consoleSessions').values(session).execute();
  }

  /** The session if it has not expired at `now`. */
  find(idHash: Buffer, now: string): Promise<StoredConsoleSession | undefined> {
    return this.db.selectFrom('consoleSessions').selectAll().where('idHash', '=', idHash).where('expiresAt', '>', now).executeTakeFirst();
  }

  async replaceCsrfHash(idHash: Buffer, csrfHash: Buffer): Promise<void> {
    await this.db.updateTable('consoleSessions').set({ csrfHash }).where('idHash', '=', idHash).execute();
  }

  async delete(idHash: Buffer): Promise<void> {
    await this.db.deleteFrom('consoleSessions').where('idHash', '=', idHash).execute();
  }

  /** Sessions nobody signed out of end by expiring; each sign-in clears those, so the table holds about the live ones. */
  async deleteExpired(now: string): Promise<void> {
    await this.db.deleteFrom('consoleSessions').where('expiresAt', '<=', now).execute();
  }
}
